package org.gridstat.core.sched;

/** Told each flow of a link with the assured rate in force, its mean size on the wire, its hold and its slack; see {@link LinkScheduler#visitRates}. */
@FunctionalInterface
public interface FlowRateVisitor {
    /**
     * @param assuredRate   the assured rate in force, bytes per second on the wire (the reservation, or
     *                      what a rate policy moved it to)
     * @param shortfall     what its demand needs beyond what the policy could find, bytes per second (0: none)
     * @param meanWireBytes the mean event size on the wire so far (0: none arrived yet)
     * @param heldHz        the samples a second congestion control holds it to (0: no hold)
     * @param leastSlack    the least time, ns, its events had left on arrival before they could no longer
     *                      meet their end-to-end deadline, over the last period in which events that
     *                      still could arrived ({@link Long#MAX_VALUE}: none yet)
     */
    void flow(FlowSpec spec, long assuredRate, long shortfall, double meanWireBytes, int heldHz, long leastSlack);
}
