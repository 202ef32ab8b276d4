package org.gridstat.rpc.call;

/** What the server did with a request, as its reply says. */
public enum ReplyCode {
    /** The actuator ran; the reply carries its result. */
    EXECUTED(1, "executed"),
    /** The pre-condition did not hold: the actuator did not run. */
    PRECONDITION_FAILED(2, "pre-condition failed; the actuator did not run"),
    UNAUTHORISED(3, "the caller may not call this operation"),
    UNKNOWN_OPERATION(4, "no such operation"),
    BAD_ARGUMENTS(5, "arguments do not match the operation's parameters"),
    /** The request arrived after its deadline. */
    LATE(6, "arrived after its deadline"),
    /** Its deadline lies further ahead than the server remembers requests for. */
    TOO_FAR_AHEAD(7, "deadline beyond the server's deduplication window"),
    /** An older request of the session than the server still remembers: it may have run already. */
    TOO_OLD(8, "older than the requests the server remembers for its session"),
    /** The table of recent requests is full of requests that could still be retried. */
    BUSY(9, "too many recent requests to remember another"),
    /** The actuator ran and failed. */
    ACTUATOR_FAILED(10, "the actuator failed"),
    /** The server restarted while the actuator ran: it may or may not have acted, and will not again. */
    INTERRUPTED(11, "interrupted by a server restart; not run again"),
    MALFORMED(12, "malformed request");

    final int code;
    private final String description;

    ReplyCode(int code, String description) {
        this.code = code;
        this.description = description;
    }

    public String description() {
        return description;
    }

    /**
     * Whether the server refused the request before running anything. Not {@link #TOO_OLD}: that
     * try ran nothing, but an earlier one may have.
     */
    public boolean refusal() {
        return this != EXECUTED && this != PRECONDITION_FAILED && this != ACTUATOR_FAILED && this != INTERRUPTED
                && this != TOO_OLD;
    }

    static ReplyCode of(int code) {
        for (ReplyCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return null;
    }
}
