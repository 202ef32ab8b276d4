package org.gridstat.congestion.notice;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.CongestionNotice;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.statusrouter.spi.NoticeHost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A router's congestion-notice channels on loopback TCP, its data path on a loop of its own: a
 * next hop's notices become holds and advice upstream, a publisher is told and holds its samples,
 * and forged, stale, malformed and silent peers are counted and get nothing.
 */
class NoticePlaneTest {
    private static final long S = 1_000_000_000L;
    private static final long HZ60 = 16_666_667;
    private static final long BE_VARIABLE = 2;
    private static final long HRT_VARIABLE = 1;
    private static final long RELAYED_VARIABLE = 3;
    /** Quick liveness, so that a silent peer is given up within a test. */
    private static final ControlLiveness.Timing TIMING = ControlLiveness.Timing.ofMillis(100, 400);

    private EventLoop loop;
    private EngineHost path;
    private NoticePlane plane;
    private ServerSocket previousRouter;

    @BeforeEach
    void start() throws Exception {
        previousRouter = new ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress());
        loop = new DefaultEventLoop();
        path = loop.submit(() -> new EngineHost(loop, "r1",
                List.of(new NoticeHost.OutLink("r2", "127.0.0.1"), new NoticeHost.OutLink("r3", "127.0.0.2")),
                1_000_000, 100_000_000L, new InetSocketAddress("127.0.0.1", 0), TIMING)).get();
        int fromR0 = path.number(new ControlMessage.Upstream("r0", Endpoint.parse("127.0.0.1:" + previousRouter.getLocalPort())));
        int[] publisher = {FlowEntry.PUBLISHER};
        on(() -> {
            path.engine.submit(FlowCommand.install(new FlowEntry(1, HRT_VARIABLE, 0,
                    FlowSpec.of(1, ServiceClass.HRT, 3_000, 3_000, 6_000, FlowSpec.DEFAULT_BUFFER_EVENTS, ""),
                    new long[0], 0, 0, 0, publisher)));
            path.engine.submit(FlowCommand.install(new FlowEntry(1, BE_VARIABLE, 0,
                    FlowSpec.of(2, ServiceClass.BE, 6_000, 600, 6_000, FlowSpec.DEFAULT_BUFFER_EVENTS, ""),
                    new long[0], HZ60, 0, 0, publisher)));
            FlowSpec relayed = FlowSpec.of(3, ServiceClass.BE, 6_000, 600, 6_000, 20, "");
            path.engine.submit(FlowCommand.install(new FlowEntry(1, RELAYED_VARIABLE, 1, relayed, new long[0], HZ60, 0, 0,
                    new int[] {fromR0})));
            return path.engine.applyCommands(0);
        });
        plane = NoticePlane.start(path);
        assertNotNull(plane);
    }

    @AfterEach
    void stop() throws Exception {
        plane.close();
        previousRouter.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The plane again with the routers' default liveness, for tests that keep its loop busy for a while. */
    private void restartWithDefaultTiming() {
        restartWith(ControlLiveness.Timing.DEFAULT);
    }

    private void restartWith(ControlLiveness.Timing timing) {
        plane.close();
        path.timing(timing);
        plane = NoticePlane.start(path);
        assertNotNull(plane);
    }

    /**
     * For the storms of 300,000 changes that fill a connection: the plane's loop runs their tasks
     * for seconds on a loaded machine, reading little meanwhile, and the writability under test is
     * not the heartbeats' to judge, so a peer is given a minute of silence.
     */
    private static final ControlLiveness.Timing STORM = ControlLiveness.Timing.ofMillis(1_000, 60_000);

    private <T> T on(Callable<T> task) throws Exception {
        return loop.submit(task).get(5, TimeUnit.SECONDS);
    }

    /** As {@link #on(Callable)}, for a long task: up to a minute. */
    private <T> T onLong(Callable<T> task) throws Exception {
        return loop.submit(task).get(60, TimeUnit.SECONDS);
    }

    private int held(long flowId) throws Exception {
        return on(() -> path.engine.heldRate(flowId));
    }

    /** Waits up to 5 s for {@code condition}, checking every 10 ms. */
    private static void await(String what, Callable<Boolean> condition) throws Exception {
        await(what, 5, condition);
    }

    /** Waits up to {@code seconds} for {@code condition}, checking every 10 ms. */
    private static void await(String what, int seconds, Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + seconds * S;
        while (!condition.call()) {
            if (System.nanoTime() > end) {
                fail("not within " + seconds + " s: " + what);
            }
            Thread.sleep(10);
        }
    }

    /** A peer on a plain socket, reading and writing the control framing. */
    private static final class Peer implements AutoCloseable {
        final Socket socket;
        final DataInputStream in;
        final OutputStream out;
        long sequence;

        Peer(InetSocketAddress to, String fromHost) throws IOException {
            socket = new Socket();
            socket.bind(new InetSocketAddress(fromHost, 0));
            socket.connect(to, 2_000);
            socket.setSoTimeout(5_000);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        Peer(InetSocketAddress to) throws IOException {
            this(to, "127.0.0.1");
        }

        void send(long seq, ControlMessage m) throws IOException {
            out.write(ControlCodec.encode(seq, m));
            out.flush();
        }

        void send(ControlMessage m) throws IOException {
            send(++sequence, m);
        }

        /** The next frame that is not a heartbeat. */
        ControlFrame next() throws IOException {
            while (true) {
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
                if (!(f.message() instanceof ControlMessage.Heartbeat)) {
                    return f;
                }
            }
        }

        /** Whether the far end closed (the next read ends), reading past any frames. */
        boolean closedByFarEnd() throws IOException {
            try {
                while (true) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                }
            } catch (java.io.EOFException | java.net.SocketException e) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aNextHopsNoticeHoldsItsFlowAndIsAcknowledgedAndThePublisherIsToldAndHoldsItsSamples() throws Exception {
        List<Integer> told = new CopyOnWriteArrayList<>();
        try (java.nio.channels.DatagramChannel dataPort = java.nio.channels.DatagramChannel.open().bind(plane.localAddress());
             Publisher publisher = Publisher.connect(plane.localAddress()); // its samples go to the UDP port of that number
             Peer r2 = new Peer(plane.localAddress())) {
            Publication be = publisher.publication(VariableId.of(BE_VARIABLE), ServiceClass.BE, null, Duration.ofNanos(HZ60));
            Publication hrt = publisher.publication(VariableId.of(HRT_VARIABLE), ServiceClass.HRT, Duration.ofMillis(50));
            publisher.congestionNotices((variable, rate) -> told.add(rate));
            await("the publisher named its variables", () -> plane.counter(NoticeCounter.PUBLISHER_VARIABLES) == 1);

            r2.send(new ControlMessage.NoticePeer("r2"));
            assertEquals(new ControlMessage.Ack(1), r2.next().message());
            r2.send(new CongestionNotice(BE_VARIABLE, 20));
            assertEquals(new ControlMessage.Ack(2), r2.next().message());
            assertEquals(20, held(2));
            await("the publisher was told", () -> told.equals(List.of(20)));
            assertEquals(20, be.advisedRateHz());

            long t0 = 1_790_000_000L * S;
            int sent = 0;
            for (int k = 0; k < 60; k++) {
                sent += be.publish(k, t0 + k * HZ60) ? 1 : 0;
                assertTrue(hrt.publish(k, t0 + k * HZ60), "HRT is never held");
            }
            assertEquals(20, sent, "a second at 60 Hz, held to 20 Hz");
            assertEquals(40, be.held());
            assertEquals(20, be.nextSequence(), "a held sample takes no sequence number");
            assertEquals(0, hrt.advisedRateHz());

            r2.send(new CongestionNotice(BE_VARIABLE, 0));
            assertEquals(new ControlMessage.Ack(3), r2.next().message());
            await("the lift reached the publisher", () -> told.equals(List.of(20, 0)));
            assertEquals(0, held(2));
            assertEquals(2, plane.counter(NoticeCounter.NOTICES_APPLIED));
        }
    }

    @Test
    void forgedStaleMalformedAndMisplacedFramesAreCountedRefusedAndChangeNothing() throws Exception {
        try (Peer stranger = new Peer(plane.localAddress())) {
            stranger.send(new ControlMessage.NoticePeer("r9"));
            ControlFrame f = stranger.next();
            assertTrue(f.message() instanceof ControlMessage.Nack n && n.reason().contains("no out-link to 'r9'"), "" + f);
            assertTrue(stranger.closedByFarEnd());
        }
        try (Peer impostor = new Peer(plane.localAddress(), "127.0.0.1")) { // r3's link is at 127.0.0.2
            impostor.send(new ControlMessage.NoticePeer("r3"));
            ControlFrame f = impostor.next();
            assertTrue(f.message() instanceof ControlMessage.Nack n && n.reason().contains("is at 127.0.0.2"), "" + f);
            assertTrue(impostor.closedByFarEnd());
        }
        try (Peer r2 = new Peer(plane.localAddress())) {
            r2.send(new CongestionNotice(BE_VARIABLE, 5));
            assertTrue(r2.next().message() instanceof ControlMessage.Nack, "a notice before the introduction");
            assertTrue(r2.closedByFarEnd());
        }
        try (Peer r2 = new Peer(plane.localAddress())) {
            r2.send(1, new ControlMessage.NoticePeer("r2"));
            r2.next();
            r2.send(2, new CongestionNotice(HRT_VARIABLE, 5));
            assertTrue(r2.next().message() instanceof ControlMessage.Nack n && n.reason().contains("HRT"));
            r2.send(3, new CongestionNotice(RELAYED_VARIABLE, 5));
            assertTrue(r2.next().message() instanceof ControlMessage.Nack n && n.reason().contains("no flow of variable 3"),
                    "variable 3 goes to r3, not r2");
            r2.send(3, new CongestionNotice(BE_VARIABLE, 5));
            assertTrue(r2.next().message() instanceof ControlMessage.Nack n && n.reason().contains("stale"));
            r2.out.write(new byte[] {0, 0, 0, 3, 9, 9, 9}); // a frame of schema 9
            r2.out.flush();
            assertTrue(r2.next().message() instanceof ControlMessage.Nack);
            r2.send(4, new ControlMessage.Publishes(new long[] {BE_VARIABLE}));
            assertTrue(r2.next().message() instanceof ControlMessage.Nack n && n.reason().contains("does not belong"));
            r2.send(5, new CongestionNotice(BE_VARIABLE, 5));
            assertEquals(new ControlMessage.Ack(5), r2.next().message(), "the connection survived all of it");
        }
        assertEquals(0, held(1));
        assertEquals(3, plane.counter(NoticeCounter.PEERS_REFUSED));
        assertEquals(2, plane.counter(NoticeCounter.NOTICES_REFUSED));
        assertEquals(1, plane.counter(NoticeCounter.NOTICES_STALE));
        assertEquals(2, plane.counter(NoticeCounter.FRAMES_REFUSED));
    }

    @Test
    void whatASilentOrClosedNextHopAskedLiftsAndAReplacingConnectionKeepsWhatItAsks() throws Exception {
        Peer first = new Peer(plane.localAddress());
        first.send(new ControlMessage.NoticePeer("r2"));
        first.next();
        first.send(new CongestionNotice(BE_VARIABLE, 10));
        first.next();
        assertEquals(10, held(2));
        try (Peer second = new Peer(plane.localAddress())) { // r2 reconnects: the first connection is replaced
            second.send(new ControlMessage.NoticePeer("r2"));
            second.next();
            assertTrue(first.closedByFarEnd());
            first.close();
            second.send(new CongestionNotice(BE_VARIABLE, 12));
            second.next();
            assertEquals(12, held(2), "the replaced connection's close lifted nothing");
            // second now says nothing, not even heartbeats: given up after the timeout
            assertTrue(second.closedByFarEnd());
        }
        await("the silent peer's hold lifted", () -> held(2) == 0);
    }

    @Test
    void adviceGoesToThePreviousRouterWholeAfterEveryConnection() throws Exception {
        try (Peer r3 = new Peer(plane.localAddress(), "127.0.0.2")) {
            r3.send(new ControlMessage.NoticePeer("r3"));
            r3.next();
            r3.send(new CongestionNotice(RELAYED_VARIABLE, 15));
            assertEquals(new ControlMessage.Ack(2), r3.next().message());
            for (int connection = 0; connection < 2; connection++) {
                previousRouter.setSoTimeout(5_000);
                try (Socket r0 = previousRouter.accept()) {
                    DataInputStream in = new DataInputStream(r0.getInputStream());
                    assertEquals(new ControlMessage.NoticePeer("r1"), read(in));
                    assertEquals(new CongestionNotice(RELAYED_VARIABLE, 15), read(in), "connection " + connection);
                    r0.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Ack(2)));
                } // closed: r1 connects again and sends the whole advice again
            }
            await("acknowledged", () -> plane.counter(NoticeCounter.ADVICE_ACKED) >= 1);

            // r3 asks nothing any more: the lift goes to r0, and the connection to it is closed once idle.
            previousRouter.setSoTimeout(5_000);
            try (Socket r0 = previousRouter.accept()) {
                DataInputStream in = new DataInputStream(r0.getInputStream());
                assertEquals(new ControlMessage.NoticePeer("r1"), read(in));
                assertEquals(new CongestionNotice(RELAYED_VARIABLE, 15), read(in));
                r3.send(new CongestionNotice(RELAYED_VARIABLE, 0));
                assertEquals(new ControlMessage.Ack(3), r3.next().message());
                assertEquals(new CongestionNotice(RELAYED_VARIABLE, 0), read(in));
                assertThrows(java.io.EOFException.class, () -> read(in), "closed after "
                        + NoticePlane.IDLE_UPSTREAM_PERIODS + " heartbeat periods with nothing asked");
            }
        }
    }

    /** A socket to the plane with a small receive window, so that what the plane writes to it backs up. */
    private Socket frozen() throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(plane.localAddress(), 2_000);
        s.setSoTimeout(5_000);
        return s;
    }

    /** Heartbeats on {@code out} every 50 ms from sequence {@code from} on, so that a peer that does not read stays alive. */
    private static Thread heartbeats(OutputStream out, long from) {
        Thread t = new Thread(() -> {
            long seq = from;
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    synchronized (out) {
                        out.write(ControlCodec.encode(seq++, new ControlMessage.Heartbeat()));
                        out.flush();
                    }
                    Thread.sleep(50);
                }
            } catch (IOException | InterruptedException e) {
                // closed
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void aPeerThatSendsGarbageAndNeverReadsDoesNotMakeThePlaneQueueRepliesWithoutBound() throws Exception {
        int frames = 200_000;
        restartWithDefaultTiming();
        try (Socket s = frozen()) {
            OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream(), 1 << 16);
            for (int k = 0; k < frames; k++) {
                out.write(new byte[] {0, 0, 0, 0}); // an empty body: malformed, each refused with a Nack
            }
            out.flush();
            long[] queued = new long[1];
            await("every frame read", 30, () -> {
                queued[0] = plane.queuedBytes();
                return plane.counter(NoticeCounter.FRAMES_REFUSED) >= frames;
            });
            queued[0] = Math.max(queued[0], plane.queuedBytes());
            assertTrue(queued[0] < (1 << 20), queued[0] + " bytes queued for a peer that reads nothing");
        }
    }

    @Test
    void aBurstOfAdviceForOneVariableIsOneNoticeOfItsLatestRate() throws Exception {
        try (Peer publisher = new Peer(plane.localAddress())) {
            publisher.send(new ControlMessage.NoticePeer(""));
            publisher.next();
            publisher.send(new ControlMessage.Publishes(new long[] {BE_VARIABLE}));
            publisher.next();
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            plane.loop().execute(() -> {
                try {
                    held.await(); // the plane's loop is busy while the data path advises
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (int k = 0; k < 100_000; k++) {
                plane.queueAdvice(FlowEntry.PUBLISHER, BE_VARIABLE, 1 + k % 50);
            }
            plane.queueAdvice(FlowEntry.PUBLISHER, BE_VARIABLE, 7);
            held.countDown();
            await("taken", () -> plane.adviceTaken());
            assertEquals(new CongestionNotice(BE_VARIABLE, 7), publisher.next().message());
            assertEquals(1, plane.counter(NoticeCounter.ADVICE_SENT), "one notice, not 100,001");
        }
    }

    /** Variables a storm advises, each round: enough notices to fill the kernel's buffers in a few rounds. */
    private static final int STORM_VARIABLES = NoticePlane.MAX_PUBLISHED;
    private static final int STORM_ROUNDS = 100;

    /**
     * Advises {@code hop} a new rate for each of {@link #STORM_VARIABLES} variables, round after
     * round, each round taken by the plane before the next (advice is coalesced per hop and
     * variable, so a round is at most one notice per variable), until the connection stalled.
     */
    private void storm(int hop) throws Exception {
        for (int round = 0; round < STORM_ROUNDS; round++) {
            for (long v = 1; v <= STORM_VARIABLES; v++) {
                plane.queueAdvice(hop, v, 20 + round % 2);
            }
            await("round " + round + " taken", 60, () -> plane.adviceTaken());
        }
    }

    @Test
    void aLiftDroppedWhileAPublishersConnectionWasNotWritableReachesItWhenItIs() throws Exception {
        restartWith(STORM);
        try (Socket s = frozen()) {
            OutputStream out = s.getOutputStream();
            out.write(ControlCodec.encode(1, new ControlMessage.NoticePeer("")));
            long seq = 2;
            for (long from = 1; from <= STORM_VARIABLES; from += ControlMessage.Publishes.MAX_VARIABLES) {
                long[] some = java.util.stream.LongStream.range(from, from + ControlMessage.Publishes.MAX_VARIABLES).toArray();
                out.write(ControlCodec.encode(seq++, new ControlMessage.Publishes(some)));
            }
            out.flush();
            await("the publisher named its variables",
                    () -> plane.counter(NoticeCounter.PUBLISHER_VARIABLES) == STORM_VARIABLES);
            Thread alive = heartbeats(out, seq);
            try {
                storm(FlowEntry.PUBLISHER);
                assertTrue(plane.counter(NoticeCounter.ADVICE_NOT_SENT) > 0, "the connection never stalled");
                plane.queueAdvice(FlowEntry.PUBLISHER, BE_VARIABLE, 0); // the lift, last
                await("the lift taken", 60, () -> plane.adviceTaken());
                assertEquals(0, lastAdvised(new DataInputStream(s.getInputStream()), BE_VARIABLE),
                        "the publisher is left held");
            } finally {
                alive.interrupt();
            }
        }
    }

    @Test
    void aLiftDroppedWhileThePreviousRoutersConnectionWasNotWritableReachesItWhenItIs() throws Exception {
        restartWith(STORM);
        previousRouter.setReceiveBufferSize(4096);
        previousRouter.setSoTimeout(5_000);
        on(() -> path.relay.noticed(1, RELAYED_VARIABLE, 15));
        int r0 = path.number(new ControlMessage.Upstream("r0", Endpoint.parse("127.0.0.1:" + previousRouter.getLocalPort())));
        try (Socket s = previousRouter.accept()) {
            s.setSoTimeout(5_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(new ControlMessage.NoticePeer("r1"), read(in));
            assertEquals(new CongestionNotice(RELAYED_VARIABLE, 15), read(in));
            Thread alive = heartbeats(s.getOutputStream(), 1);
            try {
                storm(r0);
                assertTrue(plane.counter(NoticeCounter.ADVICE_NOT_SENT) > 0, "the connection never stalled");
                on(() -> path.relay.noticed(1, RELAYED_VARIABLE, 0)); // the lift, last, from the relay
                await("the lift taken", 60, () -> plane.adviceTaken());
                assertEquals(0, lastAdvised(in, RELAYED_VARIABLE), "the previous router is left held");
            } finally {
                alive.interrupt();
            }
        }
    }

    /**
     * Reads notices for up to 5 s, returning as soon as the latest one for {@code variable} lifts
     * it (0), or else the latest rate read.
     */
    private static int lastAdvised(DataInputStream in, long variable) throws IOException {
        // returns at the lift; the window only bounds a run where it never comes, so it is generous:
        // on a loaded machine the storm's backlog took longer than 5 s to drain
        long end = System.nanoTime() + 30 * S;
        int last = -1;
        while (System.nanoTime() < end) {
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            if (ControlCodec.decode(ByteBuffer.wrap(body)).message() instanceof CongestionNotice n && n.variableId() == variable) {
                last = n.rateHz();
                if (last == 0) {
                    return 0;
                }
            }
        }
        return last;
    }

    @Test
    void aPreviousRouterThatClosesEveryConnectionAtOnceIsRetriedWithGrowingBackOff() throws Exception {
        previousRouter.setSoTimeout(5_000);
        on(() -> path.relay.noticed(1, RELAYED_VARIABLE, 15));
        long[] at = new long[5];
        for (int k = 0; k < at.length; k++) {
            previousRouter.accept().close(); // accepted, never acknowledged
            at[k] = System.nanoTime();
        }
        long lastGapMs = (at[4] - at[3]) / 1_000_000;
        assertTrue(lastGapMs >= 400, "the fifth connection came " + lastGapMs + " ms after the fourth");
    }

    private static ControlMessage read(DataInputStream in) throws IOException {
        while (true) {
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            ControlMessage m = ControlCodec.decode(ByteBuffer.wrap(body)).message();
            if (!(m instanceof ControlMessage.Heartbeat)) {
                return m;
            }
        }
    }
}
