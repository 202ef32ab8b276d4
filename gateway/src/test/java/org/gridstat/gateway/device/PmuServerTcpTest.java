package org.gridstat.gateway.device;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.config.Config3Assembler;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.HeaderFrame;
import org.gridstat.gateway.c37118.config.HeaderFrameCodec;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PmuServerTcpTest {
    /** 2023-11-14T22:13:20.123456789Z: SOC 1,700,000,000, fraction 123,456 in a TIME_BASE of 10^6. */
    private static final long NOW = 1_700_000_000_123_456_789L;
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final ManualClock clock = new ManualClock(NOW);
    private PmuServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
    }

    private PmuServer start(TestStream stream, PmuServer.Settings settings) {
        server = PmuServer.start(settings, stream, clock);
        return server;
    }

    private PmuServer start(TestStream stream) {
        return start(stream, PmuServer.Settings.tcp(ANY_LOOPBACK_PORT));
    }

    private static ConfigFrame stamped(ConfigFrame c, FrameType type) {
        return new ConfigFrame(type, c.version(), c.idCode(), 1_700_000_000L, FracSec.of(0, 123_456), c.timeBase(), c.pmus(),
                c.dataRate());
    }

    @Test
    void answersEachConfigurationAndTheHeaderStampedWithTheClock() throws IOException {
        TestStream stream = TestStream.twoPmus();
        start(stream);
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            c.command(CommandFrame.SEND_CONFIG_2);
            byte[] cfg2 = c.frame();
            assertEquals(stamped(stream.config2, FrameType.CONFIG_2), new ConfigFrameCodec().decode(ByteBuffer.wrap(cfg2), 0, cfg2.length).frame());

            c.command(CommandFrame.SEND_CONFIG_1);
            byte[] cfg1 = c.frame();
            assertEquals(stamped(stream.config2, FrameType.CONFIG_1), new ConfigFrameCodec().decode(ByteBuffer.wrap(cfg1), 0, cfg1.length).frame());

            c.command(CommandFrame.SEND_CONFIG_3);
            byte[] cfg3 = c.frame();
            Config3Frame derived = Config3FromConfig2.derive(stamped(stream.config2, FrameType.CONFIG_2));
            assertEquals(derived, new Config3Assembler().offer(ByteBuffer.wrap(cfg3), 0, cfg3.length).frame());

            c.command(CommandFrame.SEND_HEADER);
            byte[] header = c.frame();
            HeaderFrame h = HeaderFrameCodec.decode(ByteBuffer.wrap(header), 0, header.length).frame();
            assertEquals(TestStream.ID_CODE, h.idCode());
            assertEquals(1_700_000_000L, h.soc());
            assertTrue(h.text().contains("PMU 11") && h.text().contains("PMU 12"), h.text());
        }
        ServerCounters n = server.counters();
        assertEquals(List.of(1L, 1L, 1L, 1L, 4L, 1L), List.of(n.sendConfig1(), n.sendConfig2(), n.sendConfig3(), n.sendHeader(),
                n.configFramesSent() + n.headerFramesSent(), n.connectionsAccepted()));
    }

    @Test
    void servesTheStreamsOwnCfg3AndHeaderAndShowsAConfigurationChangeAtOnce() throws IOException {
        TestStream stream = TestStream.twoPmus();
        start(stream);
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            Config3Frame own = org.gridstat.gateway.c37118.SampleConfigs.config3(
                    org.gridstat.gateway.c37118.config.DataFormat.of(true, false, true, false));
            stream.config3 = new Config3Frame(own.version(), TestStream.ID_CODE, 0, 0, own.timeBase(), own.pmus(), own.dataRate());
            stream.header = new HeaderFrame(2, TestStream.ID_CODE, 0, 0, "the stream's own words");
            c.command(CommandFrame.SEND_CONFIG_3);
            byte[] cfg3 = c.frame();
            assertEquals(own.pmus(), new Config3Assembler().offer(ByteBuffer.wrap(cfg3), 0, cfg3.length).frame().pmus());
            c.command(CommandFrame.SEND_HEADER);
            byte[] header = c.frame();
            assertEquals("the stream's own words", HeaderFrameCodec.decode(ByteBuffer.wrap(header), 0, header.length).frame().text());

            ConfigFrame next = TestStream.bigFrames().config2;
            stream.config2 = next;
            clock.advance(1_000_000_000L);
            c.command(CommandFrame.SEND_CONFIG_2);
            byte[] cfg2 = c.frame();
            ConfigFrame got = new ConfigFrameCodec().decode(ByteBuffer.wrap(cfg2), 0, cfg2.length).frame();
            assertEquals(next.pmus(), got.pmus());
            assertEquals(1_700_000_001L, got.soc());
        }
    }

    @Test
    void dataOnSendsTheFramesGivenAfterItByteForByteInOrder() throws IOException {
        TestStream stream = TestStream.twoPmus();
        start(stream);
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            server.send(ByteBuffer.wrap(TestFrames.data(stream.config2, 0)));
            // Commands are obeyed in order: once the header is here, data is on.
            c.write(TestFrames.command(CommandFrame.DATA_ON), TestFrames.command(CommandFrame.SEND_HEADER));
            assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
            for (int n = 1; n <= 300; n++) {
                ByteBuffer b = ByteBuffer.wrap(TestFrames.data(stream.config2, n));
                server.send(b);
                assertEquals(0, b.position(), "the caller's buffer is left as it was");
            }
            for (int n = 1; n <= 300; n++) {
                assertArrayEquals(TestFrames.data(stream.config2, n), c.frame(), "frame " + n);
            }
            c.command(CommandFrame.SEND_CONFIG_2);
            assertEquals(FrameType.CONFIG_2, TestFrames.type(c.frame()), "nothing but the 300 frames came before the answer");
        }
        ServerCounters n = server.counters();
        assertEquals(301, n.dataFramesOffered());
        assertEquals(300, n.dataFramesSent());
        assertEquals(0, n.dataFramesDropped());
    }

    @Test
    void dataOffStopsTheDataOfThatClientOnly() throws IOException {
        TestStream stream = TestStream.twoPmus();
        start(stream);
        try (TcpTestClient quitter = TcpTestClient.connect(server.tcpAddress());
             TcpTestClient sentinel = TcpTestClient.connect(server.tcpAddress())) {
            for (TcpTestClient c : List.of(quitter, sentinel)) {
                c.write(TestFrames.command(CommandFrame.DATA_ON), TestFrames.command(CommandFrame.SEND_HEADER));
                assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
            }
            server.send(ByteBuffer.wrap(TestFrames.data(stream.config2, 1)));
            assertArrayEquals(TestFrames.data(stream.config2, 1), quitter.frame());
            assertArrayEquals(TestFrames.data(stream.config2, 1), sentinel.frame());

            quitter.write(TestFrames.command(CommandFrame.DATA_OFF), TestFrames.command(CommandFrame.SEND_HEADER));
            assertEquals(FrameType.HEADER, TestFrames.type(quitter.frame()));
            server.send(ByteBuffer.wrap(TestFrames.data(stream.config2, 2)));
            server.send(ByteBuffer.wrap(TestFrames.data(stream.config2, 3)));
            // One I/O thread writes every client in the order send() queued the writes: once the
            // sentinel has frame 3, frame 2 would already be in the quitter's stream had its data been on.
            assertArrayEquals(TestFrames.data(stream.config2, 2), sentinel.frame());
            assertArrayEquals(TestFrames.data(stream.config2, 3), sentinel.frame());
            quitter.command(CommandFrame.SEND_CONFIG_2);
            assertEquals(FrameType.CONFIG_2, TestFrames.type(quitter.frame()), "no data frame after data off");
            ServerCounters.ClientCounters q = server.counters().client(quitter.localAddress());
            assertFalse(q.dataOn());
            assertEquals(1, q.dataFramesSent());
        }
    }

    @Test
    void readsTwoCommandsAndGarbageInOneSegmentAndACommandSplitAcrossTwo() throws Exception {
        start(TestStream.twoPmus());
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            byte[] garbage = {0x01, 0x02, (byte) 0xAA, 0x7F, 0x55, 0x00};
            c.write(garbage, TestFrames.command(CommandFrame.SEND_HEADER), garbage, TestFrames.command(CommandFrame.SEND_CONFIG_2), garbage);
            assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
            assertEquals(FrameType.CONFIG_2, TestFrames.type(c.frame()));

            byte[] cfg1 = TestFrames.command(CommandFrame.SEND_CONFIG_1);
            c.write(Arrays.copyOfRange(cfg1, 0, 7));
            Thread.sleep(50); // so the halves travel in separate segments
            c.write(Arrays.copyOfRange(cfg1, 7, cfg1.length));
            assertEquals(FrameType.CONFIG_1, TestFrames.type(c.frame()));
        }
        ServerCounters n = server.counters();
        assertEquals(3, n.sendHeader() + n.sendConfig2() + n.sendConfig1());
        assertEquals(3L * 6, n.bytesSkipped());
    }

    @Test
    void countsAndIgnoresAWrongIdCodeADamagedFrameAndAnUnknownCodeAndKeepsTheConnection() throws IOException {
        TestStream stream = TestStream.twoPmus();
        start(stream);
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            byte[] damaged = TestFrames.command(CommandFrame.SEND_CONFIG_2);
            damaged[damaged.length - 1] ^= 0x01;
            c.write(TestFrames.command(TestStream.ID_CODE + 1, CommandFrame.SEND_CONFIG_2), damaged,
                    TestFrames.command(0x0100), TestFrames.command(CommandFrame.EXTENDED_FRAME),
                    TestFrames.data(stream.config2, 9), TestFrames.command(CommandFrame.SEND_HEADER));
            assertEquals(FrameType.HEADER, TestFrames.type(c.frame()), "the first answer is to the one good command");
        }
        ServerCounters n = server.counters();
        assertEquals(1, n.commandsRefusedWrongIdCode());
        assertEquals(1, n.commandsRefusedBadFrame());
        assertEquals(1, n.unknownCommands());
        assertEquals(1, n.extendedFrames());
        assertEquals(1, n.framesIgnored());
        assertEquals(0, n.sendConfig2());
    }

    @Test
    void closesAClientThatSendsOnlyGarbage() throws IOException {
        start(TestStream.twoPmus());
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            byte[] junk = new byte[ClientSession.GARBAGE_LIMIT / 8];
            Arrays.fill(junk, (byte) 0x55);
            for (int i = 0; i < 9; i++) {
                c.write(junk);
            }
            assertTrue(c.closedByServer());
        }
        Await.until("the connection is counted closed", () -> server.counters().connectionsClosed() == 1);
        assertEquals(1, server.counters().connectionsClosedForGarbage());
        assertEquals(0, server.counters().tcpClients());
    }

    @Test
    void closesTheConnectionBeyondMaxClientsAndCountsIt() throws IOException {
        start(TestStream.twoPmus(), PmuServer.Settings.tcp(ANY_LOOPBACK_PORT).withMaxClients(2));
        try (TcpTestClient a = TcpTestClient.connect(server.tcpAddress());
             TcpTestClient b = TcpTestClient.connect(server.tcpAddress())) {
            for (TcpTestClient c : List.of(a, b)) {
                c.command(CommandFrame.SEND_HEADER);
                assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
            }
            try (TcpTestClient third = TcpTestClient.connect(server.tcpAddress())) {
                assertTrue(third.closedByServer());
            }
            assertEquals(1, server.counters().connectionsRefused());
            a.close();
            Await.until("the first client's slot is free", () -> server.counters().tcpClients() == 1);
            try (TcpTestClient fourth = TcpTestClient.connect(server.tcpAddress())) {
                fourth.command(CommandFrame.SEND_HEADER);
                assertEquals(FrameType.HEADER, TestFrames.type(fourth.frame()));
            }
        }
        assertEquals(3, server.counters().connectionsAccepted());
    }

    @Test
    void aClientThatDoesNotReadLosesFramesAloneAndTheServerHoldsAtMostItsLimit() throws Exception {
        TestStream stream = TestStream.bigFrames();
        int limit = 256 * 1024;
        start(stream, PmuServer.Settings.tcp(ANY_LOOPBACK_PORT).withMaxPendingBytes(limit));
        int frames = 5_000;
        byte[][] data = new byte[64][];
        for (int i = 0; i < data.length; i++) {
            data[i] = TestFrames.data(stream.config2, i);
        }
        try (TcpTestClient slow = TcpTestClient.connect(server.tcpAddress(), 4096);
             TcpTestClient fast = TcpTestClient.connect(server.tcpAddress())) {
            for (TcpTestClient c : List.of(slow, fast)) {
                c.write(TestFrames.command(CommandFrame.DATA_ON), TestFrames.command(CommandFrame.SEND_HEADER));
                assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
            }
            int[] received = {0};
            Throwable[] failure = {null};
            Thread reader = new Thread(() -> {
                try {
                    for (int n = 0; n < frames; n++) {
                        assertArrayEquals(data[n % data.length], fast.frame(), "frame " + n);
                        synchronized (received) {
                            received[0]++;
                            received.notifyAll();
                        }
                    }
                } catch (Throwable t) {
                    failure[0] = t;
                    synchronized (received) {
                        received.notifyAll();
                    }
                }
            });
            reader.start();
            for (int n = 0; n < frames; n++) {
                // Keep the reading client within 32 frames (128 kB) of the sender: it must lose none.
                synchronized (received) {
                    long deadline = System.nanoTime() + TcpTestClient.WAIT.toNanos();
                    while (n - received[0] > 32 && failure[0] == null && System.nanoTime() < deadline) {
                        received.wait(100);
                    }
                }
                assertNull(failure[0]);
                server.send(ByteBuffer.wrap(data[n % data.length]));
            }
            reader.join(TcpTestClient.WAIT.toMillis());
            assertNull(failure[0]);
            assertEquals(frames, received[0]);

            ServerCounters n = server.counters();
            ServerCounters.ClientCounters s = n.client(slow.localAddress());
            ServerCounters.ClientCounters f = n.client(fast.localAddress());
            assertEquals(frames, f.dataFramesSent());
            assertEquals(0, f.dataFramesDropped());
            assertEquals(frames, s.dataFramesSent() + s.dataFramesDropped());
            assertTrue(s.dataFramesDropped() > frames / 2, "the frozen client lost most frames: " + s);
            assertTrue(s.pendingBytesPeak() <= limit, "never more than the limit queued: " + s);
            assertEquals(s.dataFramesDropped(), n.dataFramesDropped());
        }
    }

    @Test
    void aClientThatAsksWithoutReadingCannotMakeTheServerHoldMoreThanItsLimitAndOneAnswer() throws Exception {
        TestStream stream = TestStream.bigFrames();
        int limit = 64 * 1024;
        start(stream, PmuServer.Settings.tcp(ANY_LOOPBACK_PORT).withMaxPendingBytes(limit));
        int cfg2Size = ConfigFrameCodec.encode(stream.config2).length;
        byte[] ask = TestFrames.command(CommandFrame.SEND_CONFIG_2);
        byte[] burst = new byte[ask.length * 1000];
        for (int i = 0; i < 1000; i++) {
            System.arraycopy(ask, 0, burst, i * ask.length, ask.length);
        }
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress(), 4096)) {
            // Ask for up to 8 GB of CFG-2 frames and read none. The writer blocks once the server
            // stops reading; closing the socket ends it.
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < 1000; i++) {
                        c.write(burst);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            writer.start();
            Await.until("the client's queue is full", () -> {
                ServerCounters.ClientCounters s = server.counters().client(c.localAddress());
                return s != null && s.pendingBytes() > limit;
            });
            ServerCounters.ClientCounters s = server.counters().client(c.localAddress());
            assertTrue(s.pendingBytesPeak() <= limit + cfg2Size, "at most the limit and one answer: " + s);
            assertEquals(FrameType.CONFIG_2, TestFrames.type(c.frame()), "answers already queued still come");
            c.close();
            writer.join(TcpTestClient.WAIT.toMillis());
        }
    }

    @Test
    void refusesToStartOnAPortInUseWithAClearMessage() {
        start(TestStream.twoPmus());
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> PmuServer.start(PmuServer.Settings.tcp(server.tcpAddress()), TestStream.twoPmus()));
        assertTrue(e.getMessage().contains("cannot bind TCP clients on " + server.tcpAddress()), e.getMessage());
    }

    @Test
    void closeEndsEveryConnectionAndIsIdempotent() throws IOException {
        start(TestStream.twoPmus());
        try (TcpTestClient c = TcpTestClient.connect(server.tcpAddress())) {
            c.command(CommandFrame.SEND_HEADER);
            c.frame();
            server.close();
            assertTrue(c.closedByServer());
            server.close();
            server.send(ByteBuffer.wrap(TestFrames.data(TestStream.twoPmus().config2, 1)));
        }
    }
}
