package org.gridstat.rpc.client;

/** How a call ended, as its caller sees it. */
public enum CallOutcome {
    /** The actuator ran; the result is in the reply. */
    SUCCESS,
    /** The pre-condition did not hold: the actuator did not run. */
    PRECONDITION_FAILED,
    /**
     * The reply was lost but the post-condition's report came and says it does not hold (the
     * actuator ran). When the reply came, a failed post-condition is in {@link Call#postcondition()}.
     */
    POSTCONDITION_FAILED,
    /** The server refused the request and ran nothing ({@link CallResult#code()} says why). */
    REFUSED,
    /** The actuator ran and failed, or was interrupted by a server restart. */
    ACTUATOR_FAILED,
    /** The call's deadline passed before any answer, with tries still allowed. */
    TIMEOUT,
    /**
     * Every try timed out unanswered, or the server answered {@code TOO_OLD} (it no longer
     * remembers the request): the request may or may not have run (at most once).
     */
    UNKNOWN_DELIVERY
}
