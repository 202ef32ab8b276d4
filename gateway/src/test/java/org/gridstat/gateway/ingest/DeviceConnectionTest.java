package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The device session's transport against the PMU simulator on loopback, in each of the four
 * modes, and against devices that misbehave: one that goes away and comes back, one that sends
 * garbage between frames and splits frames across segments, one that floods.
 */
class DeviceConnectionTest {
    private static final int ID = 7;
    private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);

    private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final List<AutoCloseable> open = new ArrayList<>();

    /** What a device's session hands on: configurations and copies of the data frames. */
    static final class Recorder implements DeviceSession.Sink {
        final List<ConfigFrame> configs = new CopyOnWriteArrayList<>();
        final List<byte[]> frames = new CopyOnWriteArrayList<>();

        @Override
        public void configuration(ConfigFrame config) {
            configs.add(config);
        }

        @Override
        public void data(DataFrameReader frame) {
            // the reader's frame is the session's buffer: rebuild the bytes from what it reads
            frames.add(frameBytes(frame));
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private static PmuSimSpec spec(int phasors, int configCount) {
        return new PmuSimSpec(ID, 2, 50, 1_000_000, List.of(
                new SimulatedPmu("SUB1", ID, DataFormat.of(true, true, true, true), phasors, 1, 1, NominalFrequency.HZ_50),
                new SimulatedPmu("SUB2", ID + 1, DataFormat.of(false, false, false, false), 2, 2, 1,
                        NominalFrequency.HZ_60)), configCount);
    }

    private PmuSimulator sim(PmuSimSpec spec, PmuServer.Settings transport) {
        PmuSimulator s = PmuSimulator.start(spec, transport);
        open.add(s);
        return s;
    }

    private DeviceConnection connect(DeviceSettings s, Recorder r) {
        DeviceConnection c = new DeviceConnection(s.withTimings(Duration.ofMillis(50), Duration.ofMillis(400),
                Duration.ofMillis(500), Duration.ofSeconds(1)), loops.next(), SystemClock.INSTANCE,
                SystemNanoClock.INSTANCE, r);
        open.add(c);
        return c.start();
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(ANY)) {
            return s.getLocalPort();
        }
    }

    /**
     * The frames are the simulator's own for their instants, in order on its 50 Hz grid, none lost:
     * a gap is an instant the simulator itself passed over (its thread woke too late on a loaded
     * machine), and there are no more of those than it counted.
     */
    private void assertSimulatorFrames(PmuSimSpec spec, List<byte[]> frames) {
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        long previous = -1;
        long gaps = 0;
        for (byte[] f : frames) {
            ByteBuffer b = ByteBuffer.wrap(f);
            long soc = CommonHeader.soc(b, 0);
            int fraction = FracSec.fraction(CommonHeader.fracSec(b, 0));
            assertArrayEquals(PmuSimulator.dataFrame(spec, cfg, soc, fraction, 0), f);
            long instant = soc * 1_000_000 + fraction;
            if (previous >= 0) {
                long step = instant - previous;
                assertTrue(step > 0 && step % 20_000 == 0, "in order on the grid, none repeated: " + step);
                gaps += step / 20_000 - 1;
            }
            previous = instant;
        }
        assertTrue(gaps <= skipped(), gaps + " instants missing, the simulators skipped " + skipped());
    }

    /** Instants the simulators of this test passed over. */
    private long skipped() {
        return open.stream().filter(o -> o instanceof PmuSimulator).mapToLong(o -> ((PmuSimulator) o).instantsSkipped())
                .sum();
    }

    @Test
    void overTcp() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        PmuSimulator s = sim(spec, PmuServer.Settings.tcp(ANY));
        Recorder r = new Recorder();
        connect(DeviceSettings.of("tcp", DeviceTransport.TCP, s.server().tcpAddress(), null, ID), r);
        await(() -> r.frames.size() >= 50, "a second of frames");
        assertSimulatorFrames(spec, r.frames);
    }

    @Test
    void overUdp() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        PmuSimulator s = sim(spec, PmuServer.Settings.udp(ANY));
        Recorder r = new Recorder();
        connect(DeviceSettings.of("udp", DeviceTransport.UDP, s.server().udpAddress(), ANY, ID), r);
        await(() -> r.frames.size() >= 50, "a second of frames");
        assertSimulatorFrames(spec, r.frames);
    }

    @Test
    void commandsOnTcpDataOnUdp() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        InetSocketAddress local = new InetSocketAddress("127.0.0.1", freeUdpPort());
        PmuSimulator s = sim(spec, PmuServer.Settings.tcp(ANY).withTcpDataOverUdp(local));
        Recorder r = new Recorder();
        connect(DeviceSettings.of("tcp+udp", DeviceTransport.TCP_UDP, s.server().tcpAddress(), local, ID), r);
        await(() -> r.frames.size() >= 50, "a second of frames");
        assertSimulatorFrames(spec, r.frames);
    }

    @Test
    void spontaneousUdp() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        InetSocketAddress local = new InetSocketAddress("127.0.0.1", freeUdpPort());
        Recorder r = new Recorder();
        connect(DeviceSettings.of("spontaneous", DeviceTransport.SPONTANEOUS, null, local, ID), r);
        sim(spec, new PmuServer.Settings(null, null, local, null, 4, 1 << 20, Duration.ofSeconds(60), Duration.ofSeconds(60)));
        await(() -> r.frames.size() >= 50, "a second of frames after the first CFG-2");
        assertSimulatorFrames(spec, r.frames);
    }

    @Test
    void aDeviceThatGoesAwayAndComesBackOnItsPortIsReadAgain() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        PmuSimulator first = sim(spec, PmuServer.Settings.tcp(ANY));
        InetSocketAddress address = first.server().tcpAddress();
        Recorder r = new Recorder();
        DeviceConnection c = connect(DeviceSettings.of("tcp", DeviceTransport.TCP, address, null, ID), r);
        await(() -> r.frames.size() >= 10, "frames from the first run");
        first.close();
        await(() -> c.counters().state() != DeviceState.STREAMING, "the loss is seen");
        int before = r.frames.size();
        sim(spec, PmuServer.Settings.tcp(address));
        await(() -> r.frames.size() >= before + 25, "frames from the second run");
        assertTrue(c.counters().get(DeviceCounter.CONNECTS) >= 2);
        assertSimulatorFrames(spec, r.frames.subList(before, r.frames.size()));
    }

    @Test
    void aConfigurationChangeMidStreamIsPickedUp() throws Exception {
        PmuSimSpec before = spec(3, 1);
        PmuSimulator s = sim(before, PmuServer.Settings.tcp(ANY));
        Recorder r = new Recorder();
        DeviceConnection c = connect(DeviceSettings.of("tcp", DeviceTransport.TCP, s.server().tcpAddress(), null, ID), r);
        await(() -> r.frames.size() >= 10, "frames under the first configuration");
        PmuSimSpec after = spec(6, 2);
        s.announceChange(after, Duration.ofMillis(200));
        await(() -> r.configs.size() == 2, "the new configuration");
        assertEquals(PmuSimulator.configFor(after).pmus(), r.configs.get(1).pmus());
        int at = r.frames.size();
        await(() -> r.frames.size() >= at + 25, "frames under the new configuration");
        int layout = PmuSimulator.dataFrame(after, PmuSimulator.configFor(after), 0, 0, 0).length;
        for (byte[] f : r.frames.subList(at, r.frames.size())) {
            assertEquals(layout, f.length, "frames of the new layout");
        }
        assertTrue(c.counters().get(DeviceCounter.STAT_CONFIG_CHANGE) > 0, "the change bit was seen");
    }

    @Test
    void garbageBetweenFramesAndFramesSplitAcrossSegmentsLoseNoFrame() throws Exception {
        PmuSimSpec spec = spec(3, 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        long now = System.currentTimeMillis() / 1000;
        try (ServerSocket device = new ServerSocket(0, 1, ANY.getAddress())) {
            Recorder r = new Recorder();
            DeviceConnection c = connect(DeviceSettings.of("raw", DeviceTransport.TCP,
                    new InetSocketAddress("127.0.0.1", device.getLocalPort()), null, ID), r);
            try (Socket s = device.accept()) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                in.read(new byte[64]); // DATA_OFF and the CFG-2 request
                out.write(ConfigFrameCodec.encode(cfg));
                List<byte[]> sent = new ArrayList<>();
                for (int k = 0; k < 40; k++) {
                    byte[] f = PmuSimulator.dataFrame(spec, cfg, now, k * 20_000, 0);
                    sent.add(f);
                    if (k % 3 == 0) {
                        out.write(new byte[] {0x00, (byte) 0xAA, 0x7F, 0x13, (byte) 0xAA}); // garbage, false syncs
                    }
                    if (k % 2 == 0) { // one frame across three writes
                        out.write(f, 0, 5);
                        out.flush();
                        out.write(f, 5, 7);
                        out.flush();
                        out.write(f, 12, f.length - 12);
                    } else {
                        out.write(f);
                    }
                    out.flush();
                }
                await(() -> r.frames.size() == 40, "all 40 frames");
                for (int k = 0; k < 40; k++) {
                    assertArrayEquals(sent.get(k), r.frames.get(k), "frame " + k);
                }
                assertTrue(c.counters().rejects(FrameReject.BAD_SYNC) > 0, "the garbage was counted");
            }
        }
    }

    @Test
    void aFloodingDeviceLosesItsExcessAndAnotherDeviceOnTheSameLoopLosesNothing() throws Exception {
        // the group has one event loop: both devices share it
        PmuSimSpec spec = spec(3, 1);
        PmuSimulator good = sim(spec, PmuServer.Settings.tcp(ANY));
        Recorder goodFrames = new Recorder();
        connect(DeviceSettings.of("good", DeviceTransport.TCP, good.server().tcpAddress(), null, ID), goodFrames);

        ConfigFrame cfg = PmuSimulator.configFor(spec);
        InetSocketAddress floodTo = new InetSocketAddress("127.0.0.1", freeUdpPort());
        Recorder floodFrames = new Recorder();
        DeviceConnection flooded = connect(DeviceSettings.of("flood", DeviceTransport.SPONTANEOUS, null, floodTo, ID),
                floodFrames);
        await(() -> goodFrames.frames.size() >= 5, "the good device streams");
        int from = goodFrames.frames.size();
        try (DatagramSocket attacker = new DatagramSocket(ANY)) {
            byte[] c = ConfigFrameCodec.encode(cfg);
            attacker.send(new DatagramPacket(c, c.length, floodTo));
            long soc = System.currentTimeMillis() / 1000;
            for (int k = 0; k < 20_000; k++) {
                byte[] f = PmuSimulator.dataFrame(spec, cfg, soc, (k % 50) * 20_000, 0);
                attacker.send(new DatagramPacket(f, f.length, floodTo));
            }
        }
        await(() -> goodFrames.frames.size() >= from + 50, "a second of the good device's frames during the flood");
        assertSimulatorFrames(spec, goodFrames.frames.subList(from - 1, goodFrames.frames.size()));
        assertTrue(flooded.counters().get(DeviceCounter.DATA_FLOOD) + flooded.counters().get(DeviceCounter.DATA_REPEATED)
                > 0, "the flood's excess was dropped and counted");
        assertTrue(floodFrames.frames.size() <= 100, "at most its burst and rate got through: " + floodFrames.frames.size());
    }

    /** The bytes of the frame a reader wraps. */
    static byte[] frameBytes(DataFrameReader frame) {
        ByteBuffer b = frame.buffer();
        byte[] copy = new byte[frame.layout().frameSize()];
        b.get(frame.offset(), copy);
        return copy;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }
}
