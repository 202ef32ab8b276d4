package org.gridstat.rpc.call;

import java.util.List;

/** The Ratatoskr messages a 2WoPS connection carries (their bytes: {@link RpcCodec}). */
public sealed interface RpcMessage {
    /** The client's session: request ids count up within it. */
    long session();

    long requestId();

    /**
     * A call.
     *
     * @param deadlineEpochNanos after this the server refuses it as late
     * @param retries            the retries the client allows itself: the server allows as many to the post-condition's report
     */
    record Request(long session, long requestId, long deadlineEpochNanos, int retries, String caller, String operation,
                   List<Object> arguments) implements RpcMessage {
        public Request {
            arguments = List.copyOf(arguments);
        }
    }

    /**
     * What became of a call.
     *
     * @param value       the operation's result (Long, Double, Boolean or String), or {@code null}
     * @param postDueNanos when the post-condition's report is due after this reply is sent, or -1 if none will come
     */
    record Reply(long session, long requestId, ReplyCode code, Object value, String detail, long postDueNanos)
            implements RpcMessage {
    }

    /** The post-condition of an executed call, evaluated after its settling delay. */
    record Post(long session, long requestId, boolean holds, String detail) implements RpcMessage {
    }
}
