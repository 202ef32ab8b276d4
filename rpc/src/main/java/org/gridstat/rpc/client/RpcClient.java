package org.gridstat.rpc.client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.gridstat.rpc.call.ReplyCode;
import org.gridstat.rpc.call.RpcCodec;
import org.gridstat.rpc.call.RpcMessage;
import org.gridstat.rpc.transport.Delivery;
import org.gridstat.rpc.transport.Inbound;
import org.gridstat.rpc.transport.Timers;
import org.gridstat.rpc.transport.TwoWayEndpoint;

/**
 * A Ratatoskr client on one 2WoPS connection to a server. A call sends its request with the
 * policy's redundancy and acknowledgement (the reply acknowledges it; a lost reply is replayed by
 * the server on the next try), and ends at the first of: a reply, a post-condition report (the
 * reply lost), every try unanswered ({@link CallOutcome#UNKNOWN_DELIVERY}), its deadline
 * ({@link CallOutcome#TIMEOUT}). Request ids count up from 1 within the session; a new client
 * (a restart) takes a new session id. Pure logic in the thread of its {@link Timers}.
 */
public final class RpcClient {
    /** Calls not ended or still awaiting their post-condition report, at most. */
    public static final int MAX_OUTSTANDING = 256;

    private final TwoWayEndpoint endpoint;
    private final Timers timers;
    private final long session;
    private final String caller;
    private final Map<Long, Pending> calls = new HashMap<>();
    private long nextRequestId = 1;
    private long strayMessages;
    private long unreadable;

    public RpcClient(TwoWayEndpoint endpoint, Timers timers, long session, String caller) {
        this.endpoint = Objects.requireNonNull(endpoint);
        this.timers = Objects.requireNonNull(timers);
        if (caller == null || caller.isBlank()
                || caller.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > RpcCodec.MAX_CALLER_BYTES) {
            throw new IllegalArgumentException("a client names its caller in 1.." + RpcCodec.MAX_CALLER_BYTES
                    + " bytes of UTF-8, got '" + caller + "'");
        }
        this.session = session;
        this.caller = caller;
        endpoint.inbox(this::received);
    }

    public long session() {
        return session;
    }

    /**
     * Calls {@code operation} with {@code arguments} (Long, Double, Boolean or String each).
     *
     * @throws IllegalArgumentException if the request cannot be encoded (a bad name, too many arguments)
     * @throws IllegalStateException    when {@link #MAX_OUTSTANDING} calls are outstanding
     */
    public Call call(String operation, List<Object> arguments, CallPolicy policy) {
        if (calls.size() >= MAX_OUTSTANDING) {
            throw new IllegalStateException(MAX_OUTSTANDING + " calls outstanding already");
        }
        long id = nextRequestId++;
        byte[] request = RpcCodec.encode(new RpcMessage.Request(session, id, timers.epochNanos() + policy.deadlineNanos(),
                policy.redundancy().retries(), caller, operation, arguments));
        Pending p = new Pending(new Call(id), timers.nowNanos());
        p.messageId = endpoint.send(request, policy.redundancy(), true, (messageId, delivery, attempts) -> {
            p.attempts = attempts;
            if (delivery == Delivery.UNKNOWN) {
                end(p, new CallResult(CallOutcome.UNKNOWN_DELIVERY, null, null, "no answer to " + attempts + " tries",
                        attempts, timers.nowNanos() - p.startedAt));
            }
        });
        p.attempts = 1;
        calls.put(id, p); // only once sent: a refused send leaves nothing behind
        p.deadline = timers.after(policy.deadlineNanos(), () -> {
            if (!p.call.result().isDone()) {
                p.attempts = Math.max(p.attempts, endpoint.tries(p.messageId));
                endpoint.forget(p.messageId);
                end(p, new CallResult(CallOutcome.TIMEOUT, null, null, "no answer within the deadline", p.attempts,
                        timers.nowNanos() - p.startedAt));
            }
        });
        p.postWait = timers.after(policy.postWaitNanos(), () -> post(p, new PostResult(PostOutcome.UNKNOWN,
                "no post-condition report within " + policy.postWaitNanos() / 1_000_000 + " ms")));
        return p.call;
    }

    private void received(Inbound m) {
        RpcCodec.Decoded d = RpcCodec.decode(m.bytes(), m.payloadOffset(), m.payloadLength());
        if (!d.ok()) {
            unreadable++;
            return;
        }
        Pending p = d.message().session() == session ? calls.get(d.message().requestId()) : null;
        if (p == null) {
            strayMessages++; // an answer to a call that ended (a replay, a late copy) or to another session
            return;
        }
        if (d.message() instanceof RpcMessage.Reply r) {
            if (p.call.result().isDone()) {
                strayMessages++;
                return;
            }
            p.attempts = Math.max(p.attempts, endpoint.tries(p.messageId));
            endpoint.forget(p.messageId);
            long elapsed = timers.nowNanos() - p.startedAt;
            CallOutcome outcome = switch (r.code()) {
                case EXECUTED -> CallOutcome.SUCCESS;
                case PRECONDITION_FAILED -> CallOutcome.PRECONDITION_FAILED;
                case ACTUATOR_FAILED, INTERRUPTED -> CallOutcome.ACTUATOR_FAILED;
                // the server forgot the request: an earlier try may have run it, so this is no refusal
                case TOO_OLD -> CallOutcome.UNKNOWN_DELIVERY;
                default -> CallOutcome.REFUSED;
            };
            end(p, new CallResult(outcome, r.code(), r.value(), r.detail(), p.attempts, elapsed));
            if (r.postDueNanos() < 0 && r.code() != ReplyCode.TOO_OLD) { // after TOO_OLD a report may still come
                post(p, new PostResult(PostOutcome.NOT_CHECKED, r.code() == ReplyCode.EXECUTED
                        ? "the operation has no post-condition" : "the actuator did not run"));
            }
        } else if (d.message() instanceof RpcMessage.Post post) {
            if (!p.call.result().isDone()) { // the reply was lost: the report shows the actuator ran
                p.attempts = Math.max(p.attempts, endpoint.tries(p.messageId));
                endpoint.forget(p.messageId);
                end(p, new CallResult(post.holds() ? CallOutcome.SUCCESS : CallOutcome.POSTCONDITION_FAILED,
                        ReplyCode.EXECUTED, null, post.detail(), p.attempts, timers.nowNanos() - p.startedAt));
            }
            post(p, new PostResult(post.holds() ? PostOutcome.HOLDS : PostOutcome.FAILED, post.detail()));
        } else {
            unreadable++;
        }
    }

    private void end(Pending p, CallResult r) {
        if (p.deadline != null) {
            p.deadline.cancel();
        }
        p.call.result().complete(r);
        release(p);
    }

    private void post(Pending p, PostResult r) {
        if (p.postWait != null) {
            p.postWait.cancel();
        }
        p.call.postcondition().complete(r);
        release(p);
    }

    private void release(Pending p) {
        // A call that ended without a reply stays until its report comes or its wait ends.
        if (p.call.result().isDone() && p.call.postcondition().isDone()) {
            calls.remove(p.call.requestId());
        }
    }

    /** Calls ended or awaiting a report now. */
    public int outstanding() {
        return calls.size();
    }

    /** Answers to calls no longer waiting (replays, late copies) or to another session. */
    public long strayMessages() {
        return strayMessages;
    }

    public long unreadable() {
        return unreadable;
    }

    private static final class Pending {
        final Call call;
        final long startedAt;
        long messageId;
        int attempts;
        Timers.Cancellable deadline;
        Timers.Cancellable postWait;

        Pending(Call call, long startedAt) {
            this.call = call;
            this.startedAt = startedAt;
        }
    }
}
