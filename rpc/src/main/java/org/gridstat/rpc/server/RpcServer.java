package org.gridstat.rpc.server;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.gridstat.rpc.call.ReplyCode;
import org.gridstat.rpc.call.RpcCodec;
import org.gridstat.rpc.call.RpcMessage;
import org.gridstat.rpc.condition.Condition;
import org.gridstat.rpc.condition.StatusView;
import org.gridstat.rpc.condition.Verdict;
import org.gridstat.rpc.transport.Inbound;
import org.gridstat.rpc.transport.Inbox;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.rpc.transport.Timers;
import org.gridstat.rpc.transport.TwoWayEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Ratatoskr server: exports the typed operations of an actuator and answers the requests its
 * 2WoPS connections carry. For each request, in this order:
 * <ol>
 *   <li>malformed: answered {@link ReplyCode#MALFORMED} if its ids could be read, else dropped (counted);
 *   <li>the caller's permission for the operation ({@link Authorisation}), before anything else;
 *   <li>unknown operation; arguments not matching its parameters;
 *   <li>a try of a request it remembers: its reply (and post-condition report) replayed, nothing run;
 *       the same id carrying other bytes is answered {@link ReplyCode#MALFORMED};
 *   <li>a request of its session older than it remembers: refused, never run;
 *   <li>late (its deadline passed) or too far ahead (beyond the window it is remembered for); busy;
 *   <li>written down ({@link RequestLog}, durably) and remembered, then the pre-condition:
 *       if it does not hold, the actuator does not run;
 *   <li>the actuator runs; the reply goes back with the request's redundancy, acknowledging it;
 *   <li>with a post-condition, it is evaluated after the operation's settling delay and reported
 *       separately, with acknowledgement and as many retries as the request allowed itself.
 * </ol>
 * Replies to refusals are not remembered (they ran nothing). Pure logic in the thread of its
 * {@link Timers}: the simulator runs the server a node runs.
 */
public final class RpcServer {
    private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

    private final Timers timers;
    private final StatusView status;
    private final Authorisation authorisation;
    private final RequestLog log;
    private final ServerSettings settings;
    private final RecentRequests recent;
    private final Map<String, Operation> operations = new LinkedHashMap<>();
    private final EnumMap<ReplyCode, Long> replies = new EnumMap<>(ReplyCode.class);
    private final Map<String, Long> executions = new LinkedHashMap<>();
    private final MessageDigest sha256;
    private long replays;
    private long droppedUnreadable;
    private long postsHeld;
    private long postsFailed;
    private long postsUnacknowledged;
    private long logFailures;

    public RpcServer(Timers timers, StatusView status, Authorisation authorisation, RequestLog log, ServerSettings settings) {
        this.timers = Objects.requireNonNull(timers);
        this.status = Objects.requireNonNull(status);
        this.authorisation = Objects.requireNonNull(authorisation);
        this.log = log == null ? RequestLog.NONE : log;
        this.settings = settings == null ? ServerSettings.DEFAULT : settings;
        this.recent = new RecentRequests(this.settings.maxRequests(), this.settings.maxSessions(), this.settings.windowNanos());
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Restores what the log holds from before a restart: those requests are remembered again, with
     * their replies; one whose reply was never written ran or was about to run, and is answered
     * {@link ReplyCode#INTERRUPTED}, never run again.
     */
    public void restore() throws IOException {
        long epoch = timers.epochNanos();
        long now = timers.nowNanos();
        for (RequestLog.Entry e : log.restore(epoch)) {
            RecentRequests.Entry r = recent.add(e.session(), e.requestId(), now + (e.expiresEpochNanos() - epoch));
            r.reply = e.reply() != null ? e.reply() : RpcCodec.encode(new RpcMessage.Reply(e.session(), e.requestId(),
                    ReplyCode.INTERRUPTED, null, "the server restarted while this request ran", -1));
            r.post = e.post();
        }
    }

    /** Exports {@code op}; its name must be new. */
    public void export(Operation op) {
        if (operations.putIfAbsent(op.name(), op) != null) {
            throw new IllegalArgumentException("operation " + op.name() + " is exported already");
        }
        executions.put(op.name(), 0L);
    }

    /** The inbox of one connection: set it on the connection's endpoint. */
    public Inbox inboxFor(TwoWayEndpoint endpoint) {
        return m -> received(endpoint, m);
    }

    private void received(TwoWayEndpoint endpoint, Inbound m) {
        RpcCodec.Decoded d = RpcCodec.decode(m.bytes(), m.payloadOffset(), m.payloadLength());
        if (!d.ok()) {
            if (d.idsKnown() && d.type() == 1) {
                answer(endpoint, m, new RpcMessage.Reply(d.session(), d.requestId(), ReplyCode.MALFORMED, null, d.error(), -1),
                        null);
            } else {
                droppedUnreadable++;
            }
            return;
        }
        if (d.message() instanceof RpcMessage.Request r) {
            handle(endpoint, m, r);
        } else {
            droppedUnreadable++; // replies and reports go to clients, not here
        }
    }

    private void handle(TwoWayEndpoint endpoint, Inbound m, RpcMessage.Request r) {
        boolean permitted;
        try {
            permitted = authorisation.permits(r.caller(), r.operation());
        } catch (RuntimeException e) { // a policy that cannot answer permits nothing
            LOG.error("authorisation of {} for {} failed: {}", r.caller(), r.operation(), e.toString());
            refuse(endpoint, m, r, ReplyCode.UNAUTHORISED, "the authorisation check failed: " + e.getMessage());
            return;
        }
        if (!permitted) {
            refuse(endpoint, m, r, ReplyCode.UNAUTHORISED, r.caller() + " may not call " + r.operation());
            return;
        }
        Operation op = operations.get(r.operation());
        if (op == null) {
            refuse(endpoint, m, r, ReplyCode.UNKNOWN_OPERATION, "no operation " + r.operation() + " (exported: "
                    + String.join(", ", operations.keySet()) + ")");
            return;
        }
        String mismatch = op.mismatch(r.arguments());
        if (mismatch != null) {
            refuse(endpoint, m, r, ReplyCode.BAD_ARGUMENTS, mismatch);
            return;
        }
        long now = timers.nowNanos();
        long epoch = timers.epochNanos();
        byte[] digest = digest(m);
        switch (recent.admit(r.session(), r.requestId(), now)) {
            case KNOWN -> {
                RecentRequests.Entry known = recent.find(r.session(), r.requestId());
                if (known.request != null && !MessageDigest.isEqual(known.request, digest)) {
                    // the id is the session's, the request another: its reply is not this one's to have
                    refuse(endpoint, m, r, ReplyCode.MALFORMED, "request " + r.requestId() + " of this session is another"
                            + " request already; a session never uses an id twice");
                    return;
                }
                replay(endpoint, m, known, r);
                return;
            }
            case TOO_OLD -> {
                refuse(endpoint, m, r, ReplyCode.TOO_OLD, "request " + r.requestId() + " is older than the requests remembered"
                        + " for its session; it may have run already and is not run again");
                return;
            }
            case BUSY -> {
                recent.bar(r.session(), r.requestId(), now);
                refuse(endpoint, m, r, ReplyCode.BUSY, recent.size() + " recent requests remembered, at most "
                        + settings.maxRequests());
                return;
            }
            case NEW -> { }
        }
        long left = r.deadlineEpochNanos() - epoch;
        if (r.deadlineEpochNanos() < epoch) {
            refuse(endpoint, m, r, ReplyCode.LATE, "arrived " + (epoch - r.deadlineEpochNanos()) / 1000 + " us after its deadline");
            return;
        }
        if (left > settings.windowNanos()) {
            refuse(endpoint, m, r, ReplyCode.TOO_FAR_AHEAD, "deadline " + left / 1_000_000 + " ms ahead; at most "
                    + settings.windowNanos() / 1_000_000 + " ms");
            return;
        }
        // Remembered until it can no longer be retried, its post-condition report included.
        Redundancy tried = m.redundancy().withRetries(Math.min(r.retries(), Redundancy.MAX_RETRIES));
        long postSpan = op.checksPostcondition()
                ? op.settleNanos() + (tried.retries() + 1L) * tried.timeoutNanos(endpoint.latencyBoundNanos()) : 0;
        long keep = Math.max(left, postSpan) + settings.graceNanos();
        try {
            log.accepted(r.session(), r.requestId(), epoch + keep);
        } catch (IOException | RuntimeException e) {
            logFailures++;
            LOG.error("request log: {}; request {} of {} not run", e.toString(), r.requestId(), r.caller());
            recent.bar(r.session(), r.requestId(), now);
            refuse(endpoint, m, r, ReplyCode.BUSY, "the server cannot write its request log");
            return;
        }
        RecentRequests.Entry entry = recent.add(r.session(), r.requestId(), now + keep);
        entry.request = digest;
        // judged on the clock of now, not of the request's arrival: forcing the log to disk takes time
        Verdict pre = op.precondition().evaluate(status, timers.epochNanos());
        RpcMessage.Reply reply;
        boolean ran = false;
        if (!pre.holds()) {
            reply = new RpcMessage.Reply(r.session(), r.requestId(), ReplyCode.PRECONDITION_FAILED, null, pre.explanation(), -1);
        } else {
            ran = true;
            executions.merge(op.name(), 1L, Long::sum);
            Object value;
            ReplyCode code = ReplyCode.EXECUTED;
            String detail = "";
            try {
                value = op.actuator().invoke(r.arguments());
                String unfit = value == null ? null : RpcCodec.unfit(value);
                if (unfit != null) { // it ran: the reply says so, without the result it cannot carry
                    LOG.warn("operation {} returned {}, which no reply carries", op.name(), unfit);
                    detail = "the result is not sent: " + op.name() + " returned " + unfit;
                    value = null;
                }
            } catch (Exception e) {
                value = null;
                code = ReplyCode.ACTUATOR_FAILED;
                detail = String.valueOf(e.getMessage());
            }
            reply = new RpcMessage.Reply(r.session(), r.requestId(), code, value, detail,
                    code == ReplyCode.EXECUTED && op.checksPostcondition() ? op.settleNanos() : -1);
        }
        entry.reply = answer(endpoint, m, reply, tried);
        try {
            log.answered(r.session(), r.requestId(), entry.reply);
        } catch (IOException | RuntimeException e) {
            logFailures++;
            LOG.error("request log: {}; the reply to request {} will not survive a restart", e.toString(), r.requestId());
        }
        if (ran && reply.code() == ReplyCode.EXECUTED && op.checksPostcondition()) {
            timers.after(op.settleNanos(), () -> checkPostcondition(endpoint, op, entry, tried));
        }
    }

    /** The digest of a request's bytes: every try of it repeats them exactly. */
    private byte[] digest(Inbound m) {
        sha256.update(m.bytes(), m.payloadOffset(), m.payloadLength());
        return sha256.digest();
    }

    private void checkPostcondition(TwoWayEndpoint endpoint, Operation op, RecentRequests.Entry entry, Redundancy tried) {
        Verdict post = op.postcondition().evaluate(status, timers.epochNanos());
        if (post.holds()) {
            postsHeld++;
        } else {
            postsFailed++;
        }
        entry.post = RpcCodec.encode(new RpcMessage.Post(entry.session, entry.requestId, post.holds(), post.explanation()));
        try {
            log.posted(entry.session, entry.requestId, entry.post);
        } catch (IOException | RuntimeException e) {
            logFailures++;
            LOG.error("request log: {}; the post-condition report of request {} will not survive a restart", e.toString(),
                    entry.requestId);
        }
        sendPost(endpoint, entry.post, tried);
    }

    private void sendPost(TwoWayEndpoint endpoint, byte[] post, Redundancy tried) {
        try {
            endpoint.send(post, tried, true, (id, delivery, attempts) -> {
                if (delivery == org.gridstat.rpc.transport.Delivery.UNKNOWN) {
                    postsUnacknowledged++;
                }
            });
        } catch (IllegalStateException full) { // the connection awaits too many acknowledgements: a retry replays it
            postsUnacknowledged++;
            LOG.warn("post-condition report not sent: {}", full.getMessage());
        }
    }

    private void replay(TwoWayEndpoint endpoint, Inbound m, RecentRequests.Entry e, RpcMessage.Request r) {
        replays++;
        Redundancy tried = m.redundancy().withRetries(Math.min(r.retries(), Redundancy.MAX_RETRIES));
        if (e.reply != null) {
            endpoint.send(e.reply, tried.withRetries(0), false, null);
        }
        if (e.post != null) {
            sendPost(endpoint, e.post, tried);
        }
    }

    private void refuse(TwoWayEndpoint endpoint, Inbound m, RpcMessage.Request r, ReplyCode code, String why) {
        answer(endpoint, m, new RpcMessage.Reply(r.session(), r.requestId(), code, null, why, -1), null);
    }

    /** Sends a reply with the request's redundancy, no retries of its own: a lost reply is replayed on the request's retry. */
    private byte[] answer(TwoWayEndpoint endpoint, Inbound m, RpcMessage.Reply reply, Redundancy tried) {
        replies.merge(reply.code(), 1L, Long::sum);
        byte[] bytes = RpcCodec.encode(reply);
        endpoint.send(bytes, (tried == null ? m.redundancy() : tried).withRetries(0), false, null);
        return bytes;
    }

    // --- counters ------------------------------------------------------------------------------

    /** Times the actuator of {@code operation} ran: what at-most-once is checked against. */
    public long executions(String operation) {
        return executions.getOrDefault(operation, 0L);
    }

    /** Replies sent with {@code code}, replays not included. */
    public long replies(ReplyCode code) {
        return replies.getOrDefault(code, 0L);
    }

    /** Tries of remembered requests answered from memory. */
    public long replays() {
        return replays;
    }

    /** Messages dropped because not even their ids could be read, or that were not requests. */
    public long droppedUnreadable() {
        return droppedUnreadable;
    }

    public long postconditionsHeld() {
        return postsHeld;
    }

    public long postconditionsFailed() {
        return postsFailed;
    }

    /** Post-condition reports whose every try went unacknowledged. */
    public long postReportsUnacknowledged() {
        return postsUnacknowledged;
    }

    /** Requests refused because the request log could not be written. */
    public long logFailures() {
        return logFailures;
    }

    /** Requests remembered now. */
    public int remembered() {
        return recent.size();
    }

    public List<String> operations() {
        return List.copyOf(operations.keySet());
    }
}
