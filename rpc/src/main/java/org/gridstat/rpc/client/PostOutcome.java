package org.gridstat.rpc.client;

/** What the server reported of a call's post-condition. */
public enum PostOutcome {
    HOLDS,
    FAILED,
    /** The operation has no post-condition, or the actuator did not run. */
    NOT_CHECKED,
    /** No report came within the call's wait for it. */
    UNKNOWN
}
