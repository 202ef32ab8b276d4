package org.gridstat.core.sched;

/** Told each flow of a link with the assured rate in force and its mean size on the wire; see {@link LinkScheduler#visitRates}. */
@FunctionalInterface
public interface FlowRateVisitor {
    /**
     * @param assuredRate   the assured rate in force, bytes per second on the wire (the reservation, or
     *                      what a rate policy moved it to)
     * @param shortfall     what its demand needs beyond what the policy could find, bytes per second (0: none)
     * @param meanWireBytes the mean event size on the wire so far (0: none arrived yet)
     */
    void flow(FlowSpec spec, long assuredRate, long shortfall, double meanWireBytes);
}
