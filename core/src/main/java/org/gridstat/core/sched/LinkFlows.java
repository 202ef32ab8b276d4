package org.gridstat.core.sched;

/**
 * The flows of one out-link as a rate policy sees them: each slot's reservation (what the broker
 * installed), its estimated demand, and the assured rate in force, which the policy may move away
 * from the reservation. A local layer: a new reservation from the broker replaces the spec, not the
 * layer, and the policy is asked again at once. Used on the data-path thread only.
 */
public interface LinkFlows {
    /** The link's capacity, bytes per second. */
    long capacity();

    /** Slots a flow may occupy: {@code 0 .. slotCount() - 1}. */
    int slotCount();

    /** The flow's reservation as installed, or {@code null} for a free slot. */
    FlowSpec reserved(int slot);

    /**
     * The flow's demand R in bytes per second on the wire (frames and their IP and UDP headers, the
     * units of the broker's reservations): its arrival rate's moving average, or the last period's
     * rate when that is higher, so a surge counts within one period and a lull fades. The last
     * period's rate is its arrivals', or, if lower, the rate its samples' source times were taken
     * at: a sample that jitter carried across the period's edge does not count as a step of demand.
     */
    double demand(int slot);

    /**
     * The least change of demand the estimator can tell from noise, bytes per second: one of the
     * flow's events (its mean size on the wire) per estimator period.
     */
    long resolution(int slot);

    /** The assured rate in force: the reservation's unless a policy moved it. */
    long assured(int slot);

    /**
     * Serves the flow at {@code assuredRate} from {@code now} on (its ceiling rises with it if
     * needed); the reservation is kept.
     */
    void assure(int slot, long assuredRate, long now);

    /**
     * Publishes how much more the flow needs than a policy could assure it, bytes per second (0:
     * nothing short); shown in its statistics until set again.
     */
    void shortfall(int slot, long bytesPerSecond);
}
