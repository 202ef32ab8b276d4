package org.gridstat.statusrouter.spi;

import java.util.List;

/**
 * One out-link shaped by the kernel, from {@link KernelShaping#open} until {@link #close}. Called
 * from one thread of the router's, never the data path.
 */
public interface KernelLink extends AutoCloseable {
    /**
     * Makes the kernel's flows those given: adds what is new, changes the rates that moved (the
     * broker's reservations and congestion control's reassignments alike), removes what is gone.
     * Idempotent: the same list again changes nothing in the kernel, unless the kernel lost the
     * tree (its device removed and made again, its root qdisc deleted), which it builds again: the
     * router applies its flows again about once a second when they do not change.
     *
     * @throws Exception naming the operation the kernel refused; what was applied before it stays
     */
    void apply(List<KernelFlow> flows) throws Exception;

    /** The kernel's counters of the flows last applied, one per flow the kernel holds. */
    List<KernelFlowStatistics> statistics() throws Exception;

    /** Removes the tree, leaving the device as it was before {@link KernelShaping#open}. Never throws. */
    @Override
    void close();
}
