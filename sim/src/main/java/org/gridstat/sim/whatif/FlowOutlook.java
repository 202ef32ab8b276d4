package org.gridstat.sim.whatif;

import java.util.List;
import org.gridstat.core.model.ServiceClass;

/**
 * What the simulation says of one subscription: its figures with the candidate (and the surge),
 * the same network without the candidate for comparison ({@code null} if the candidate was not
 * admitted, or for the candidate itself), where it lent bandwidth, and how many samples its
 * publisher held back under congestion notices ({@code heldAtSource}, counted for the variable,
 * over the whole run: the unreported last second included).
 */
public record FlowOutlook(String label, String flowName, ServiceClass serviceClass, boolean candidate, FlowFigures with,
                          FlowFigures without, List<Lending> lent, long heldAtSource) {
    public FlowOutlook {
        lent = List.copyOf(lent);
    }

    /** Whether it misses a deadline, overflows, lends or is held at its source: what the console lists. */
    public boolean troubled() {
        return with.missed() > 0 || with.overflowDrops() > 0 || !lent.isEmpty() || heldAtSource > 0;
    }
}
