package org.gridstat.rpc.client;

import org.gridstat.rpc.call.ReplyCode;

/**
 * How a call ended.
 *
 * @param code         the server's reply code, or {@code null} when no reply came
 * @param value        the operation's result, or {@code null}
 * @param detail       the server's explanation (a failed pre-condition, a refusal), or the client's
 * @param attempts     tries of the request sent when it ended (1: no retry)
 * @param elapsedNanos from the call to its end, on the caller's monotonic clock
 */
public record CallResult(CallOutcome outcome, ReplyCode code, Object value, String detail, int attempts, long elapsedNanos) {
    /** Answered on the first try, without a retry: the paper's early success. */
    public boolean early() {
        return attempts == 1 && code != null;
    }
}
