package org.gridstat.gateway.pmusim;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.device.PmuServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PmuSimulatorRunTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final long PERIOD = 20_000_000L;
    /** One nanosecond past a grid instant: nothing is due until the test moves the clock. */
    private static final long START = 1_700_000_000_000_000_000L + 1;

    private final PmuSimSpec spec = new PmuSimSpec(300, 2, 50, 1_000_000, List.of(
            new SimulatedPmu("EAST", 301, DataFormat.of(false, false, false, false), 6, 2, 1, NominalFrequency.HZ_60),
            new SimulatedPmu("WEST", 302, DataFormat.of(true, true, true, true), 3, 1, 0, NominalFrequency.HZ_60)), 1);
    private PmuSimulator sim;
    private Socket socket;
    private DataInputStream in;

    @AfterEach
    void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
        if (sim != null) {
            sim.close();
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.connect(sim.server().tcpAddress(), 10_000);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
    }

    private void command(int code) throws IOException {
        socket.getOutputStream().write(CommandFrameCodec.encode(new CommandFrame(2, sim.spec().streamIdCode(), 0, 0, code)));
    }

    private byte[] frame() throws IOException {
        byte[] head = new byte[4];
        in.readFully(head);
        byte[] f = Arrays.copyOf(head, (head[2] & 0xFF) << 8 | (head[3] & 0xFF));
        in.readFully(f, 4, f.length - 4);
        return f;
    }

    private ConfigFrame config2() throws IOException {
        command(CommandFrame.SEND_CONFIG_2);
        byte[] f = frame();
        return new ConfigFrameCodec().decode(ByteBuffer.wrap(f), 0, f.length).frame();
    }

    /** Instant {@code n} periods after the start's, as (SOC, fraction). */
    private static long soc(int n) {
        return 1_700_000_000L + n / 50;
    }

    private static int fraction(int n) {
        return n % 50 * 20_000;
    }

    @Test
    void sendsTheFramesOfConsecutiveGridInstantsInOrderAndSkipsWhatItMissed() throws IOException {
        ManualTime time = new ManualTime(START);
        sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(LOOPBACK), time.clock, time);
        connect();
        ConfigFrame cfg = config2();
        assertEquals(sim.config2().pmus(), cfg.pmus());
        assertEquals(1_700_000_000L, cfg.soc());
        command(CommandFrame.DATA_ON);
        command(CommandFrame.SEND_HEADER);
        assertEquals(FrameType.HEADER, CommonHeader.type(ByteBuffer.wrap(frame()), 0));

        for (int n = 1; n <= 60; n++) {
            time.advance(PERIOD);
            assertArrayEquals(PmuSimulator.dataFrame(spec, sim.config2(), soc(n), fraction(n), 0), frame(), "instant " + n);
        }
        time.advance(5 * PERIOD);
        assertArrayEquals(PmuSimulator.dataFrame(spec, sim.config2(), soc(65), fraction(65), 0), frame(), "the latest instant");
        assertEquals(4, sim.instantsSkipped());
        assertEquals(61, sim.framesSent());
    }

    @Test
    void announcesAChangeWithStatBit10ThenServesTheNewConfiguration() throws IOException {
        ManualTime time = new ManualTime(START);
        sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(LOOPBACK), time.clock, time);
        connect();
        command(CommandFrame.DATA_ON);
        assertEquals(1, config2().pmus().get(0).configCount());
        time.advance(PERIOD);
        ConfigFrame before = sim.config2();
        assertArrayEquals(PmuSimulator.dataFrame(spec, before, soc(1), fraction(1), 0), frame());

        PmuSimSpec next = spec.withConfigCount(2).withPmus(spec.pmus().subList(0, 1));
        sim.announceChange(next, Duration.ofMillis(60));
        for (int n = 2; n <= 4; n++) {
            time.advance(PERIOD);
            assertArrayEquals(PmuSimulator.dataFrame(spec, before, soc(n), fraction(n), PmuSimulator.CONFIG_CHANGE_BIT), frame(),
                    "instant " + n + " warns of the change");
        }
        time.advance(PERIOD);
        ConfigFrame after = PmuSimulator.configFor(next);
        assertArrayEquals(PmuSimulator.dataFrame(next, after, soc(5), fraction(5), 0), frame(), "the new configuration's frame");
        ConfigFrame served = config2();
        assertEquals(2, served.pmus().get(0).configCount());
        assertEquals(after.pmus(), served.pmus());

        sim.announceChange(spec.withConfigCount(3), Duration.ZERO);
        assertEquals(3, sim.config2().pmus().get(0).configCount(), "a change without notice is at once");
        assertEquals(3, config2().pmus().get(0).configCount());
    }

    @Test
    void runsOnTheSystemClockOnTheGrid() throws IOException {
        sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(LOOPBACK));
        connect();
        command(CommandFrame.DATA_ON);
        long last = -1;
        for (int i = 0; i < 10; i++) {
            ByteBuffer f = ByteBuffer.wrap(frame());
            assertEquals(FrameType.DATA, CommonHeader.type(f, 0));
            int fraction = FracSec.fraction(CommonHeader.fracSec(f, 0));
            assertEquals(0, fraction % 20_000, "on the 50 frames/s grid");
            long instant = CommonHeader.soc(f, 0) * 50 + fraction / 20_000;
            assertTrue(instant > last, "in order");
            last = instant;
        }
        assertTrue(sim.framesSent() >= 10);
    }
}
