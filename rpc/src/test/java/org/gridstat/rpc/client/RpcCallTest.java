package org.gridstat.rpc.client;

import static org.gridstat.rpc.RpcFixture.MS;
import static org.gridstat.rpc.RpcFixture.policy;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridstat.rpc.RpcFixture;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.call.ReplyCode;
import org.gridstat.rpc.call.RpcCodec;
import org.gridstat.rpc.call.RpcMessage;
import org.gridstat.rpc.condition.Condition;
import org.gridstat.rpc.server.FileRequestLog;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.PermissionTable;
import org.gridstat.rpc.server.RequestLog;
import org.gridstat.rpc.server.ServerSettings;
import org.gridstat.rpc.transport.FrameKind;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.rpc.transport.TransportFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ratatoskr calls end to end on a hand-stepped clock: outcomes, at-most-once, conditions, refusals. */
class RpcCallTest {
    private static final PermissionTable OPERATOR = PermissionTable.parse(List.of("operator1: open, close"));
    private static final String STATE = "sub1/breaker52/state";

    private RpcFixture fixture(RequestLog log, ServerSettings settings) {
        RpcFixture f = new RpcFixture(OPERATOR, log, settings);
        exportBreaker(f);
        return f;
    }

    private static void exportBreaker(RpcFixture f) {
        f.server.export(new Operation("open", List.of(ParamType.INTEGER), args -> {
            f.opened.add(args);
            f.status.update(STATE, 0, f.timers.epochNanos());
            return "opened " + args.get(0);
        }, Condition.parse(STATE + " == 1 && fresh(" + STATE + ", 1s)"), Condition.parse(STATE + " == 0"), 100 * MS));
        f.server.export(Operation.of("close", List.of(), args -> {
            throw new IllegalStateException("spring not charged");
        }));
    }

    private RpcFixture closedBreaker() {
        RpcFixture f = fixture(null, null);
        f.status.update(STATE, 1, f.timers.epochNanos());
        return f;
    }

    @Test
    void aCallRunsTheActuatorOnceAndEndsEarlyAfterOneRoundTrip() {
        RpcFixture f = closedBreaker();
        Call c = f.call("open", List.of(52L), policy(1, 2));
        f.timers.drain();
        CallResult r = c.result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome());
        assertEquals("opened 52", r.value());
        assertEquals(12 * MS, r.elapsedNanos());
        assertTrue(r.early());
        assertEquals(List.of(List.of(52L)), f.opened);
        assertEquals(PostOutcome.HOLDS, c.postcondition().join().outcome());
        assertEquals(0, f.client.outstanding());
    }

    @Test
    void copiesOverTwoPathsAndRetriesWhoseRepliesAreLostRunTheActuatorOnce() {
        RpcFixture f = closedBreaker();
        // every reply to the first two tries (sent at 0 and 32 ms) lost: the client tries three times
        f.net.drop(s -> !s.fromClient() && s.kind() == FrameKind.DATA && s.at() < 60 * MS && isReply(s.frame()));
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(2, 4, 2 * MS, 3), 500 * MS, 2000 * MS));
        f.timers.drain();
        CallResult r = c.result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome());
        assertEquals(3, r.attempts());
        assertFalse(r.early());
        assertEquals(1, f.opened.size(), "the actuator ran once for 3 tries x 4 copies x 2 paths");
        assertEquals(1, f.server.executions("open"));
        assertEquals(2, f.server.replays());
    }

    private static boolean isReply(byte[] frame) {
        TransportFrame t = new TransportFrame();
        t.decode(frame, 0, frame.length);
        RpcCodec.Decoded d = RpcCodec.decode(t.bytes(), t.payloadOffset(), t.payloadLength());
        return d.ok() && d.message() instanceof RpcMessage.Reply;
    }

    @Test
    void aRequestTooLargeForOneFrameIsRefusedWithoutLeavingACallOrAMessageBehind() {
        RpcFixture f = closedBreaker();
        String text = "x".repeat(org.gridstat.rpc.call.RpcCodec.MAX_TEXT_BYTES);
        // 1,389 bytes encoded: one more than a status event carries after the 2WoPS header
        List<Object> args = List.of(text, text, text, text, text, "x".repeat(48));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.call("open", args, policy(1, 2)));
        assertEquals(0, f.client.outstanding(), "no call left waiting forever");
        assertEquals(0, f.clientEnd.pending(), "no message left awaiting an acknowledgement that cannot come");
        assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
    }

    @Test
    void aFalsePreconditionNeverRunsTheActuator() {
        RpcFixture f = fixture(null, null);
        f.status.update(STATE, 0, f.timers.epochNanos()); // already open
        Call c = f.call("open", List.of(1L), policy(2, 2));
        f.timers.drain();
        CallResult r = c.result().join();
        assertEquals(CallOutcome.PRECONDITION_FAILED, r.outcome());
        assertTrue(r.detail().contains(STATE), r.detail());
        assertTrue(f.opened.isEmpty());
        assertEquals(PostOutcome.NOT_CHECKED, c.postcondition().join().outcome());
    }

    @Test
    void aStaleSampleFailsTheFreshnessPrecondition() {
        RpcFixture f = closedBreaker();
        f.timers.advance(1001 * MS);
        Call c = f.call("open", List.of(1L), policy(1, 0));
        f.timers.drain();
        assertEquals(CallOutcome.PRECONDITION_FAILED, c.result().join().outcome());
        assertTrue(f.opened.isEmpty());
    }

    private static RpcFixture stuckBreaker() {
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        f.server.export(new Operation("open", List.of(ParamType.INTEGER), args -> {
            f.opened.add(args);
            return null; // the breaker sticks: the state stays 1
        }, Condition.parse(STATE + " == 1"), Condition.parse(STATE + " == 0"), 100 * MS));
        f.status.update(STATE, 1, f.timers.epochNanos());
        f.net.drop(s -> !s.fromClient() && s.kind() == FrameKind.DATA && isReply(s.frame()));
        return f;
    }

    @Test
    void aFalsePostconditionReachesTheClientWhenEveryReplyCopyIsLost() {
        RpcFixture f = stuckBreaker();
        // tries every 24 ms up to 192 ms: the report (106 ms + 6 ms) ends the call
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 2, 2 * MS, 8), 300 * MS, 2000 * MS));
        f.timers.drain();
        assertEquals(1, f.opened.size());
        assertEquals(CallOutcome.POSTCONDITION_FAILED, c.result().join().outcome());
        assertEquals(112 * MS, c.result().join().elapsedNanos());
        PostResult post = c.postcondition().join();
        assertEquals(PostOutcome.FAILED, post.outcome());
        assertTrue(post.detail().contains(STATE), post.detail());
    }

    @Test
    void aFalsePostconditionReachesAMaybeOnceCallerAfterItsCallEndedUnknown() {
        RpcFixture f = stuckBreaker();
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 2, 2 * MS, 0), 300 * MS, 2000 * MS));
        f.timers.drain();
        assertEquals(1, f.opened.size());
        assertEquals(CallOutcome.UNKNOWN_DELIVERY, c.result().join().outcome());
        assertEquals(24 * MS, c.result().join().elapsedNanos());
        assertEquals(PostOutcome.FAILED, c.postcondition().join().outcome());
        assertEquals(0, f.client.outstanding());
    }

    @Test
    void aFalsePostconditionAfterAReplyIsReportedSeparately() {
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        f.server.export(new Operation("open", List.of(ParamType.INTEGER), args -> null,
                Condition.ALWAYS, Condition.parse(STATE + " == 0"), 50 * MS));
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call c = f.call("open", List.of(1L), policy(1, 1));
        f.timers.drain();
        assertEquals(CallOutcome.SUCCESS, c.result().join().outcome());
        assertEquals(PostOutcome.FAILED, c.postcondition().join().outcome());
        assertEquals(1, f.server.postconditionsFailed());
    }

    @Test
    void anUnauthorisedCallerIsRefusedBeforeAnythingElse() {
        RpcFixture f = new RpcFixture(PermissionTable.parse(List.of("operator2: *")), null, null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call c = f.call("open", List.of(1L), policy(1, 0));
        Call unknown = f.call("explode", List.of(), policy(1, 0));
        f.timers.drain();
        assertEquals(ReplyCode.UNAUTHORISED, c.result().join().code());
        assertEquals(CallOutcome.REFUSED, c.result().join().outcome());
        assertEquals(ReplyCode.UNAUTHORISED, unknown.result().join().code(), "permission is checked before the name");
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void unknownOperationsAndBadArgumentsAreRefused() {
        RpcFixture f = new RpcFixture(PermissionTable.parse(List.of("operator1: *")), null, null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call unknown = f.call("explode", List.of(), policy(1, 0));
        Call wrongType = f.call("open", List.of("52"), policy(1, 0));
        Call wrongCount = f.call("open", List.of(), policy(1, 0));
        Call failing = f.call("close", List.of(), policy(1, 0));
        f.timers.drain();
        assertEquals(ReplyCode.UNKNOWN_OPERATION, unknown.result().join().code());
        assertTrue(unknown.result().join().detail().contains("open, close"));
        assertEquals(ReplyCode.BAD_ARGUMENTS, wrongType.result().join().code());
        assertEquals(ReplyCode.BAD_ARGUMENTS, wrongCount.result().join().code());
        assertEquals(CallOutcome.ACTUATOR_FAILED, failing.result().join().outcome());
        assertEquals("spring not charged", failing.result().join().detail());
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void aRequestArrivingAfterItsDeadlineIsRefusedAsLate() {
        RpcFixture f = closedBreaker();
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 1, 0, 0), 5 * MS, 100 * MS)); // 6 ms away
        f.timers.drain();
        assertEquals(CallOutcome.TIMEOUT, c.result().join().outcome());
        assertEquals(1, f.server.replies(ReplyCode.LATE));
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void noAnswerToAnyTryEndsInUnknownDeliveryAndADeadlineFirstInTimeout() {
        RpcFixture f = closedBreaker();
        f.net.drop(s -> s.fromClient());
        Call unknown = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 1, 0, 2), 1000 * MS, 1000 * MS));
        Call timeout = f.call("open", List.of(2L), new CallPolicy(new Redundancy(1, 1, 0, 2), 30 * MS, 1000 * MS));
        f.timers.drain();
        assertEquals(CallOutcome.UNKNOWN_DELIVERY, unknown.result().join().outcome());
        assertEquals(3, unknown.result().join().attempts());
        assertEquals(60 * MS, unknown.result().join().elapsedNanos()); // 3 tries x 2 x 10 ms
        assertEquals(CallOutcome.TIMEOUT, timeout.result().join().outcome());
        assertEquals(30 * MS, timeout.result().join().elapsedNanos());
        assertEquals(PostOutcome.UNKNOWN, unknown.postcondition().join().outcome());
    }

    @Test
    void aMalformedRequestIsAnsweredAsSuchAndRunsNothing() {
        RpcFixture f = closedBreaker();
        byte[] request = RpcCodec.encode(new RpcMessage.Request(77, 9, f.timers.epochNanos() + 100 * MS, 0, "operator1",
                "open", List.of(1L)));
        request[request.length - 9] = 9; // the argument's tag
        List<RpcMessage> atClient = new java.util.ArrayList<>();
        f.clientEnd.inbox(m -> atClient.add(RpcCodec.decode(m.bytes(), m.payloadOffset(), m.payloadLength()).message()));
        f.clientEnd.send(request, Redundancy.NONE, false, null);
        f.clientEnd.send(new byte[] {1, 2, 3}, Redundancy.NONE, false, null);
        f.timers.drain();
        assertEquals(1, atClient.size());
        RpcMessage.Reply reply = (RpcMessage.Reply) atClient.get(0);
        assertEquals(ReplyCode.MALFORMED, reply.code());
        assertEquals(9, reply.requestId());
        assertTrue(reply.detail().contains("tag"), reply.detail());
        assertEquals(1, f.server.droppedUnreadable());
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void aReplayedRequestOlderThanTheTableRemembersIsRefusedEvenAfterTheEpochClockStepsBack() {
        RpcFixture f = closedBreaker();
        byte[] request = RpcCodec.encode(new RpcMessage.Request(77, 5, f.timers.epochNanos() + 100 * MS, 0, "operator1",
                "open", List.of(1L)));
        f.clientEnd.send(request, Redundancy.NONE, false, null);
        f.timers.drain();
        assertEquals(1, f.opened.size());
        f.status.update(STATE, 1, f.timers.epochNanos()); // closed again
        f.timers.advance(ServerSettings.DEFAULT.windowNanos()); // long forgotten
        f.timers.stepEpoch(-f.timers.epochNanos() + org.gridstat.rpc.ManualTimers.EPOCH_BASE); // the deadline looks ahead again
        f.status.update(STATE, 1, f.timers.epochNanos());
        f.clientEnd.send(request, Redundancy.NONE, false, null); // an attacker's replay, bytes as captured
        f.timers.drain();
        assertEquals(1, f.opened.size());
        assertEquals(1, f.server.replies(ReplyCode.TOO_OLD));
    }

    @Test
    void aFullTableRefusesNewRequestsRatherThanForgetRetriableOnes() {
        RpcFixture f = fixture(null, new ServerSettings(60_000 * MS, 1000 * MS, 2, 16));
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call a = f.call("open", List.of(1L), policy(1, 0));
        f.status.update(STATE, 1, f.timers.epochNanos());
        f.timers.advance(20 * MS);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call b = f.call("open", List.of(2L), policy(1, 0));
        f.timers.advance(20 * MS);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call c = f.call("open", List.of(3L), policy(1, 0));
        f.timers.drain();
        assertEquals(CallOutcome.SUCCESS, a.result().join().outcome());
        assertEquals(CallOutcome.SUCCESS, b.result().join().outcome());
        assertEquals(ReplyCode.BUSY, c.result().join().code());
        assertEquals(2, f.opened.size());
    }

    @Test
    void aRetryAfterAServerRestartIsAnsweredFromTheLogNotRunAgain(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("requests.log");
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        FileRequestLog log2 = FileRequestLog.open(file, f.timers::epochNanos);
        f.restartServer(OPERATOR, log2, null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        // every reply lost until the server restarts
        boolean[] restarted = {false};
        f.net.drop(s -> !s.fromClient() && !restarted[0]);
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 1, 0, 3), 500 * MS, 2000 * MS));
        f.timers.advance(15 * MS); // executed at 6 ms; its reply lost
        assertEquals(1, f.opened.size());
        log2.close();
        restarted[0] = true;
        FileRequestLog log3 = FileRequestLog.open(file, f.timers::epochNanos);
        f.restartServer(OPERATOR, log3, null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos()); // closed again: only the log stops a second run
        f.timers.drain();
        assertEquals(CallOutcome.SUCCESS, c.result().join().outcome());
        assertEquals("opened 1", c.result().join().value());
        assertEquals(1, f.opened.size(), "run once across the restart");
        assertEquals(0, f.server.executions("open"));
        assertEquals(1, f.server.replays());
        log3.close();
        assertTrue(Files.size(file) > 0);
    }

    @Test
    void aRequestAcceptedButUnansweredBeforeACrashIsAnsweredInterruptedAndNeverRunAgain(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("requests.log");
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        FileRequestLog log = FileRequestLog.open(file, f.timers::epochNanos);
        log.restore(f.timers.epochNanos());
        log.accepted(77, 1, f.timers.epochNanos() + 10_000 * MS); // the crash came before the reply was written
        log.close();
        f.restartServer(OPERATOR, FileRequestLog.open(file, f.timers::epochNanos), null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call c = f.call("open", List.of(1L), policy(1, 0)); // the client's first request id is 1
        f.timers.drain();
        assertEquals(CallOutcome.ACTUATOR_FAILED, c.result().join().outcome());
        assertEquals(ReplyCode.INTERRUPTED, c.result().join().code());
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void aCallTheConnectionCannotTakeLeavesNothingBehind() {
        RpcFixture f = closedBreaker();
        f.net.drop(s -> true);
        for (int i = 0; i < org.gridstat.rpc.transport.TwoWayEndpoint.MAX_PENDING; i++) {
            f.clientEnd.send(new byte[1], Redundancy.NONE.withRetries(1), true, null);
        }
        assertThrows(IllegalStateException.class, () -> f.call("open", List.of(1L), policy(1, 0)));
        assertEquals(0, f.client.outstanding());
        f.timers.drain();
        assertEquals(0, f.client.outstanding());
    }

    @Test
    void aClientNamesItsCallerWithinWhatARequestCarries() {
        RpcFixture f = closedBreaker();
        assertThrows(IllegalArgumentException.class, () -> new RpcClient(f.clientEnd, f.timers, 1, "x".repeat(65)));
        assertThrows(IllegalArgumentException.class, () -> new RpcClient(f.clientEnd, f.timers, 1, " "));
        assertThrows(IllegalArgumentException.class, () -> f.call("no such name", List.of(), policy(1, 0)));
        assertEquals(0, f.client.outstanding());
    }

    @Test
    void aResultNoReplyCanCarryIsDroppedNamedAndTheRetryGetsTheSameAnswer() {
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        f.server.export(Operation.of("open", List.of(ParamType.INTEGER), args -> {
            f.opened.add(args);
            return "y".repeat(RpcCodec.MAX_TEXT_BYTES + 1); // a text value longer than a reply carries
        }));
        // the first reply lost: the retry must be answered from memory, the same way
        f.net.drop(s -> !s.fromClient() && s.kind() == FrameKind.DATA && s.at() < 10 * MS);
        Call c = f.call("open", List.of(1L), policy(1, 2));
        assertDoesNotThrow(() -> f.timers.drain(), "nothing escapes the endpoint's receive");
        CallResult r = c.result().join();
        assertEquals(CallOutcome.SUCCESS, r.outcome());
        assertNull(r.value());
        assertTrue(r.detail().contains("257 bytes"), r.detail());
        assertEquals(2, r.attempts());
        assertEquals(1, f.opened.size());
        assertEquals(1, f.server.replays());
    }

    @Test
    void aRequestTooLongForOneFrameIsRefusedByTheCallAndLeavesNothingBehind() {
        RpcFixture f = closedBreaker();
        // 43 bytes of ids, deadline, names and count, then five texts of 256 bytes and one of 50:
        // 1,391 bytes, above the 1,388 a frame carries
        List<Object> args = new java.util.ArrayList<>(java.util.Collections.nCopies(5, "z".repeat(256)));
        args.add("z".repeat(50));
        assertThrows(IllegalArgumentException.class, () -> f.call("open", args, policy(1, 2)));
        assertEquals(0, f.clientEnd.pending(), "the connection awaits no acknowledgement of it");
        assertEquals(0, f.client.outstanding());
        assertTrue(f.net.sent.isEmpty());
    }

    private static boolean isExecutedReply(byte[] frame) {
        TransportFrame t = new TransportFrame();
        t.decode(frame, 0, frame.length);
        RpcCodec.Decoded d = RpcCodec.decode(t.bytes(), t.payloadOffset(), t.payloadLength());
        return d.ok() && d.message() instanceof RpcMessage.Reply r && r.code() == ReplyCode.EXECUTED;
    }

    @Test
    void aRetryTheServerNoLongerRemembersEndsUnknownNotRefusedForItMayHaveRun() {
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        f.server.export(Operation.of("open", List.of(ParamType.INTEGER), args -> {
            f.opened.add(args);
            return null;
        }));
        f.net.drop(s -> !s.fromClient() && s.kind() == FrameKind.DATA && isExecutedReply(s.frame())); // it ran; no reply says so
        Call c = f.call("open", List.of(1L), new CallPolicy(new Redundancy(1, 1, 0, 255), 5000 * MS, 10_000 * MS));
        // the server's epoch clock runs 2 s ahead of the client's: it remembers the request until
        // its deadline by its own clock (3 s) and a grace (1 s), while the client retries for 5 s
        f.timers.advance(MS);
        f.timers.stepEpoch(2000 * MS);
        f.timers.drain();
        assertEquals(1, f.opened.size());
        CallResult r = c.result().join();
        assertEquals(ReplyCode.TOO_OLD, r.code());
        assertEquals(CallOutcome.UNKNOWN_DELIVERY, r.outcome(), "TOO_OLD says it may have run, never that it did not");
        assertFalse(ReplyCode.TOO_OLD.refusal());
        assertEquals(PostOutcome.UNKNOWN, c.postcondition().join().outcome(), "whether a report was due is not known either");
    }

    @Test
    void aRequestIdUsedAgainForAnotherRequestIsNotAnsweredWithTheFirstOnesReply() {
        RpcFixture f = closedBreaker();
        Call first = f.call("open", List.of(1L), policy(1, 0));
        f.timers.advance(50 * MS);
        assertEquals("opened 1", first.result().join().value());
        // a client restarted with its predecessor's session numbers its requests from 1 again
        RpcClient again = new RpcClient(f.clientEnd, f.timers, f.client.session(), "operator1");
        f.status.update(STATE, 1, f.timers.epochNanos()); // closed again
        Call second = again.call("open", List.of(2L), policy(1, 0));
        f.timers.drain();
        CallResult r = second.result().join();
        assertNotEquals("opened 1", r.value(), "another request's reply is not this one's");
        assertEquals(CallOutcome.REFUSED, r.outcome());
        assertEquals(ReplyCode.MALFORMED, r.code());
        assertTrue(r.detail().contains("another request"), r.detail());
        assertEquals(List.of(List.of(1L)), f.opened);
        assertEquals(0, f.server.replays());
    }

    @Test
    void aServerStartedOnItsLogWithoutRestoringItRunsNothingTheLogHolds(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("requests.log");
        RpcFixture f = new RpcFixture(OPERATOR, null, null);
        FileRequestLog log = FileRequestLog.open(file, f.timers::epochNanos);
        log.restore(f.timers.epochNanos());
        log.accepted(77, 1, f.timers.epochNanos() + 10_000 * MS); // ran before the crash
        log.close();
        // restarted on the same log, but restore() was forgotten
        f.server = new org.gridstat.rpc.server.RpcServer(f.timers, f.status, OPERATOR,
                FileRequestLog.open(file, f.timers::epochNanos), null);
        f.serverEnd.inbox(f.server.inboxFor(f.serverEnd));
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call c = f.call("open", List.of(1L), policy(1, 0)); // the client's first request id is 1
        f.timers.drain();
        assertTrue(f.opened.isEmpty(), "the log says request 1 was accepted before");
        assertEquals(ReplyCode.BUSY, c.result().join().code());
        assertEquals(1, f.server.logFailures());
    }

    @Test
    void theFreshnessOfThePreconditionIsJudgedWhenItIsEvaluatedAfterTheLogIsWritten() {
        RpcFixture[] box = new RpcFixture[1];
        RequestLog slowDisk = new RequestLog() { // forcing the record to disk takes 500 ms
            @Override
            public void accepted(long session, long requestId, long expiresEpochNanos) {
                box[0].timers.stepEpoch(500 * MS);
            }

            @Override
            public void answered(long session, long requestId, byte[] reply) {
            }

            @Override
            public void posted(long session, long requestId, byte[] post) {
            }

            @Override
            public List<Entry> restore(long nowEpochNanos) {
                return List.of();
            }

            @Override
            public void close() {
            }
        };
        RpcFixture f = fixture(slowDisk, null);
        box[0] = f;
        f.status.update(STATE, 1, f.timers.epochNanos() - 600 * MS); // 606 ms old on arrival, 1.1 s when judged
        Call c = f.call("open", List.of(1L), policy(1, 0));
        f.timers.drain();
        assertEquals(CallOutcome.PRECONDITION_FAILED, c.result().join().outcome());
        assertTrue(c.result().join().detail().contains("1.106 s old"), c.result().join().detail());
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void anAuthorisationOrRequestLogThatThrowsRefusesTheCallAndKillsNothing() {
        RpcFixture f = new RpcFixture((caller, op) -> {
            if (op.equals("close")) {
                throw new IllegalStateException("directory unreachable");
            }
            return true;
        }, new RequestLog() {
            @Override
            public void accepted(long session, long requestId, long expiresEpochNanos) {
                throw new java.io.UncheckedIOException(new java.io.IOException("disk gone"));
            }

            @Override
            public void answered(long session, long requestId, byte[] reply) {
            }

            @Override
            public void posted(long session, long requestId, byte[] post) {
            }

            @Override
            public List<Entry> restore(long nowEpochNanos) {
                return List.of();
            }

            @Override
            public void close() {
            }
        }, null);
        exportBreaker(f);
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call close = f.call("close", List.of(), policy(1, 0));
        Call open = f.call("open", List.of(1L), policy(1, 0));
        assertDoesNotThrow(() -> f.timers.drain(), "nothing escapes the endpoint's receive");
        assertEquals(ReplyCode.UNAUTHORISED, close.result().join().code(), "an authorisation that cannot answer refuses");
        assertTrue(close.result().join().detail().contains("directory unreachable"), close.result().join().detail());
        assertEquals(ReplyCode.BUSY, open.result().join().code());
        assertEquals(1, f.server.logFailures());
        assertTrue(f.opened.isEmpty());
    }

    @Test
    void aRequestRefusedAsBusyNeverRunsFromALaterCopy() {
        RpcFixture f = fixture(null, new ServerSettings(60_000 * MS, 0, 1, 16));
        f.status.update(STATE, 1, f.timers.epochNanos());
        Call first = f.call("open", List.of(1L), new CallPolicy(Redundancy.NONE, 50 * MS, 100 * MS)); // fills the table
        byte[] second = RpcCodec.encode(new RpcMessage.Request(77, 2, f.timers.epochNanos() + 500 * MS, 0, "operator1",
                "open", List.of(2L)));
        f.clientEnd.send(second, Redundancy.NONE, false, null);
        f.timers.advance(20 * MS);
        assertEquals(1, f.server.replies(ReplyCode.BUSY));
        f.timers.advance(200 * MS); // the first is forgotten: the table has room again
        f.status.update(STATE, 1, f.timers.epochNanos());
        f.clientEnd.send(second, Redundancy.NONE, false, null); // a late copy, before its deadline
        f.timers.drain();
        assertEquals(CallOutcome.SUCCESS, first.result().join().outcome());
        assertEquals(List.of(List.of(1L)), f.opened, "the refused request never ran");
        assertEquals(1, f.server.replies(ReplyCode.TOO_OLD));
    }
}
