package org.gridstat.core.congestion;

import org.gridstat.core.sched.FlowSpec;

/** Where a flow's demand R stands against its reservation (DESIGN.md §5). */
public enum FlowState {
    /** R &lt;= MR: at (or below) its minimum rate. */
    MINIMUM,
    /** MR &lt; R &lt;= AR: within its assured rate. */
    STABLE,
    /** AR &lt; R: wants more than it was assured (up to its ceiling CR; beyond it, the excess is its own). */
    CONGESTED;

    public static FlowState of(FlowSpec reserved, double demand) {
        if (demand > reserved.assuredRate()) {
            return CONGESTED;
        }
        return demand > reserved.minimumRate() ? STABLE : MINIMUM;
    }
}
