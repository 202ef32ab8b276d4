package org.gridstat.rpc.transport;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.rpc.ManualTimers;
import org.gridstat.rpc.TestNetwork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The 2WoPS endpoint on a hand-stepped clock: copies, paths, acknowledgement and retries, to the nanosecond. */
class TwoWayEndpointTest {
    private static final long MS = 1_000_000;
    private static final long BOUND = 10 * MS;
    private static final long DELAY = 6 * MS;

    private final ManualTimers timers = new ManualTimers();
    private final TestNetwork net = new TestNetwork(timers, DELAY);
    private final List<String> atServer = new ArrayList<>();
    private final List<String> told = new ArrayList<>();
    private TwoWayEndpoint client;
    private TwoWayEndpoint server;

    @BeforeEach
    void connect() {
        client = new TwoWayEndpoint(0xC1, BOUND, net.fromClient(), timers, null);
        server = new TwoWayEndpoint(0x51, BOUND, net.fromServer(), timers,
                m -> atServer.add(new String(m.payload()) + "@" + timers.nowNanos() / MS + "ms#" + m.attempt()));
        net.connect(client, server);
    }

    private DeliveryListener listener() {
        return (id, d, attempts) -> told.add(id + " " + d + " after " + attempts + " at " + timers.nowNanos() / MS + "ms");
    }

    @Test
    void temporalCopiesLeaveTheirSpacingApartAndAreHandedOverOnce() {
        client.send("open".getBytes(), new Redundancy(1, 4, 2 * MS, 0), false, null);
        timers.drain();
        List<Long> times = net.from(true).stream().map(TestNetwork.Sent::at).toList();
        assertEquals(List.of(0L, 2 * MS, 4 * MS, 6 * MS), times);
        assertEquals(List.of(0, 1, 2, 3), net.from(true).stream().map(TestNetwork.Sent::copy).toList());
        assertEquals(List.of("open@6ms#0"), atServer);
        assertEquals(3, server.rejected(FrameReject.DUPLICATE));
    }

    @Test
    void copiesOverSeveralPathsAreHandedOverOnceAndTheExcessCounted() {
        client.send("x".getBytes(), new Redundancy(2, 2, 2 * MS, 0), false, null);
        timers.drain();
        assertEquals(List.of(2, 2), net.from(true).stream().map(TestNetwork.Sent::paths).toList());
        assertEquals(1, atServer.size());
        assertEquals(3, server.rejected(FrameReject.DUPLICATE)); // 2 copies x 2 paths, one handed over
    }

    @Test
    void anUnacknowledgedTryIsSentAgainAfterTwiceItsDeliveryGuarantee() {
        Redundancy r = new Redundancy(1, 2, 2 * MS, 3);
        net.drop(s -> s.fromClient() && s.attempt() == 0); // the first try is lost, both copies
        long id = client.send("x".getBytes(), r, true, listener());
        timers.drain();
        long timeout = 2 * (BOUND + 2 * MS);
        List<TestNetwork.Sent> data = net.from(true);
        assertEquals(List.of(0L, 2 * MS, timeout, timeout + 2 * MS), data.stream().map(TestNetwork.Sent::at).toList());
        assertEquals(List.of("x@" + (timeout + DELAY) / MS + "ms#1"), atServer);
        // the server's ACK mirrors the try: two copies 2 ms apart; the first ends the wait
        List<TestNetwork.Sent> acks = net.from(false);
        assertEquals(List.of(FrameKind.ACK, FrameKind.ACK), acks.stream().map(TestNetwork.Sent::kind).toList());
        assertEquals(List.of(id + " ACKNOWLEDGED after 2 at " + (timeout + 2 * DELAY) / MS + "ms"), told);
        assertEquals(1, client.resends());
        assertEquals(0, client.pending());
        assertEquals(1, client.rejected(FrameReject.STRAY_ACK)); // the ACK's second copy
    }

    @Test
    void everyTryLostEndsUnknownOnceAfterTheLastTimeout() {
        net.drop(s -> s.fromClient());
        long id = client.send("x".getBytes(), new Redundancy(1, 1, 0, 2), true, listener());
        timers.drain();
        long timeout = 2 * BOUND;
        assertEquals(List.of(0L, timeout, 2 * timeout), net.from(true).stream().map(TestNetwork.Sent::at).toList());
        assertEquals(List.of(id + " UNKNOWN after 3 at " + 3 * timeout / MS + "ms"), told);
        assertEquals(1, client.unknownDeliveries());
        assertTrue(atServer.isEmpty());
    }

    @Test
    void aResponseFromWithinTheInboxCarriesTheAcknowledgementAndNoAckIsSent() {
        server.inbox(m -> server.send("reply".getBytes(), m.redundancy(), false, null));
        List<String> atClient = new ArrayList<>();
        client.inbox(m -> atClient.add(new String(m.payload())));
        client.send("call".getBytes(), new Redundancy(1, 1, 0, 2), true, listener());
        timers.drain();
        assertEquals(List.of(FrameKind.DATA), net.from(false).stream().map(TestNetwork.Sent::kind).toList());
        assertEquals(List.of("reply"), atClient);
        assertEquals(List.of("1 ACKNOWLEDGED after 1 at 12ms"), told);
        assertEquals(1, net.from(true).size()); // no resend
    }

    @Test
    void aLaterTryOfTheSameMessageIsHandedOverAgainForTheLayerAboveToJudge() {
        net.drop(s -> !s.fromClient()); // every ACK lost
        client.send("x".getBytes(), new Redundancy(1, 1, 0, 1), true, listener());
        timers.drain();
        assertEquals(List.of("x@6ms#0", "x@" + (2 * BOUND + DELAY) / MS + "ms#1"), atServer);
    }

    @Test
    void acknowledgedCopiesNotYetSentAreCalledOff() {
        server.inbox(m -> server.send("r".getBytes(), new Redundancy(1, 1, 0, 0), false, null));
        client.send("x".getBytes(), new Redundancy(1, 8, 5 * MS, 0), true, listener());
        timers.drain();
        // copies at 0, 5, 10 ms; the reply acknowledges at 12 ms: copies due at 15..35 ms are not sent
        assertEquals(List.of(0L, 5 * MS, 10 * MS), net.from(true).stream().map(TestNetwork.Sent::at).toList());
    }

    @Test
    void malformedFramesAreCountedByReasonAndNeverHandedOver() {
        byte[] good = new byte[TransportFrame.HEADER_LENGTH + 1];
        int n = TransportFrame.encode(good, FrameKind.DATA, 0, 7, 1, 0, 0, Redundancy.NONE, 0, new byte[] {1}, 0, 1);
        assertEquals(FrameReject.TOO_SHORT, server.receive(good, 0, 10));
        byte[] magic = good.clone();
        magic[0] = 0;
        assertEquals(FrameReject.BAD_MAGIC, server.receive(magic, 0, n));
        byte[] version = good.clone();
        version[1] = 9;
        assertEquals(FrameReject.BAD_VERSION, server.receive(version, 0, n));
        byte[] kind = good.clone();
        kind[2] = 7;
        assertEquals(FrameReject.BAD_KIND, server.receive(kind, 0, n));
        byte[] copies = good.clone();
        copies[22] = 0;
        assertEquals(FrameReject.BAD_REDUNDANCY, server.receive(copies, 0, n));
        byte[] copyIndex = good.clone();
        copyIndex[21] = 1;
        assertEquals(FrameReject.BAD_REDUNDANCY, server.receive(copyIndex, 0, n));
        byte[] zero = good.clone();
        java.util.Arrays.fill(zero, 4, 12, (byte) 0);
        assertEquals(FrameReject.NO_CONNECTION, server.receive(zero, 0, n));
        assertEquals(FrameReject.BAD_LENGTH, server.receive(java.util.Arrays.copyOf(good, n + 1), 0, n + 1));
        assertTrue(atServer.isEmpty());
        assertEquals(FrameReject.NONE, server.receive(good, 0, n));
        assertEquals(1, atServer.size());
        for (FrameReject r : List.of(FrameReject.TOO_SHORT, FrameReject.BAD_MAGIC, FrameReject.BAD_VERSION, FrameReject.BAD_KIND,
                FrameReject.NO_CONNECTION, FrameReject.BAD_LENGTH)) {
            assertEquals(1, server.rejected(r), r.name());
        }
        assertEquals(2, server.rejected(FrameReject.BAD_REDUNDANCY));
    }

    @Test
    void pendingMessagesAreBounded() {
        net.drop(s -> true);
        for (int i = 0; i < TwoWayEndpoint.MAX_PENDING; i++) {
            client.send(new byte[1], Redundancy.NONE.withRetries(1), true, null);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> client.send(new byte[1], Redundancy.NONE.withRetries(1), true, null));
        assertTrue(e.getMessage().contains("await acknowledgement"), e.getMessage());
        client.send(new byte[1], Redundancy.NONE, false, null); // without acknowledgement: nothing to remember
    }

    @Test
    void redundancyRefusesWhatTheWireCannotCarry() {
        assertThrows(IllegalArgumentException.class, () -> new Redundancy(0, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Redundancy(1, 17, MS, 0));
        assertThrows(IllegalArgumentException.class, () -> new Redundancy(1, 2, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Redundancy(1, 2, 150_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new Redundancy(1, 1, 0, 256));
        assertEquals(2 * (BOUND + 3 * 2 * MS), new Redundancy(1, 4, 2 * MS, 0).timeoutNanos(BOUND));
    }

    @Test
    void aPayloadTooLongForAFrameIsRefusedBeforeAnythingIsRemembered() {
        byte[] big = new byte[TransportFrame.MAX_PAYLOAD + 1];
        assertThrows(IllegalArgumentException.class, () -> client.send(big, Redundancy.NONE.withRetries(2), true, listener()));
        assertEquals(0, client.pending());
        assertEquals(0, client.framesSent());
        timers.drain();
        assertTrue(told.isEmpty());
        client.send(new byte[TransportFrame.MAX_PAYLOAD], Redundancy.NONE, true, listener()); // the largest fits
        assertEquals(1, client.pending());
    }
}
