package org.gridstat.node.gateway;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.framing.StreamFramer;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.egress.EgressCounter;
import org.gridstat.gateway.egress.EgressSettings;
import org.gridstat.gateway.egress.EgressStream;
import org.gridstat.gateway.ingest.DeviceSettings;
import org.gridstat.gateway.ingest.DeviceTransport;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.statusrouter.api.EmbeddedRouter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole phasor path on loopback: a simulated PMU stream (two PMUs of different formats) →
 * the ingest gateway (a PDC client over TCP) → two status routers admitted by a real broker → the
 * egress gateway → C37.118 clients over TCP and UDP. Every frame a client receives must be the
 * simulator's frame for that instant, byte for byte: every phasor, frequency, ROCOF, analog,
 * digital, STAT and timestamp bit.
 */
class PhasorPathTest {
    private static final int STREAM = 7;
    private static final long S = 1_000_000_000L;
    /**
     * Deadlines and the wait window are generous: the test proves every value arrives intact and
     * in order, and must not fail because a loaded machine stalled a thread past a 50 ms deadline.
     */
    private static final Duration BOUND = Duration.ofSeconds(2);
    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final String GATEWAY = "gw-ingest";
    private final List<AutoCloseable> open = new ArrayList<>();
    private Path zk;
    private BrokerConnection api;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        if (zk != null) {
            try (var files = Files.walk(zk)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static PmuSimSpec spec(int rate) {
        return new PmuSimSpec(STREAM, 2, rate, 3_000_000, List.of(
                new SimulatedPmu("STATION A", STREAM, DataFormat.of(true, true, true, true), 4, 2, 1, NominalFrequency.HZ_60),
                new SimulatedPmu("STATION B", STREAM + 1, DataFormat.of(false, false, false, false), 3, 1, 2,
                        NominalFrequency.HZ_50)), 1);
    }

    /** Broker, two routers r1 → r2 → the egress gateway's socket, the PMU, and both gateways. */
    private PhasorGateway.Settings egressSettings;
    private PhasorGateway egress;

    /**
     * Broker, two routers r1 → r2 → the egress gateway's socket, the PMU, and both gateways; with
     * {@code egressFirst} the control center's gateway starts before the substation's has declared
     * anything, and waits for the declarations.
     */
    private EgressStream network(PmuSimulator sim, int subscribedRate, DeviceTransport transport, boolean egressFirst)
            throws Exception {
        int p1 = FreeUdpPorts.pick();
        int p2 = FreeUdpPorts.pick();
        int listen = FreeUdpPorts.pick();
        Topology.Builder t = Topology.builder();
        t.router("r1", 200_000).router("r2", 200_000);
        t.between("r1", "r2", 12_500_000, 1_000_000, Topology.Builder.defaultShares());
        zk = Files.createTempDirectory("gridstat-phasor-path");
        BrokerService broker = BrokerService.start(new BrokerService.Settings("b1", "", zk, 0, "/gridstat-test",
                Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0),
                t.build()));
        open.add(broker);
        await(() -> broker.replica().isLeader(), "the broker leads");
        QosBroker leader = broker.replica().leading();
        int control = leader.controlAddress().getPort();
        open.add(EmbeddedRouter.start(Map.of("node.id", "r1", "data.bind", "127.0.0.1:" + p1, "broker.address",
                "127.0.0.1:" + control, "links", new String[] {"name=r2 address=127.0.0.1:" + p2 + " capacity=12500000"})));
        open.add(EmbeddedRouter.start(Map.of("node.id", "r2", "data.bind", "127.0.0.1:" + p2, "broker.address",
                "127.0.0.1:" + control, "links", new String[] {"name=cc address=127.0.0.1:" + listen + " capacity=12500000"})));
        await(() -> leader.control().connected("r1") && leader.control().connected("r2"), "routers connect");
        api = BrokerConnection.connect(URI.create("http://127.0.0.1:" + broker.apiAddress().getPort()));

        List<String> pmus = List.of("utilityA/sub1/STATION_A", "utilityA/sub1/STATION_B");
        // the control center's gateway: the two PMUs as stream 7, subscribed at r2's link cc
        egressSettings = new PhasorGateway.Settings(null, null, List.of(),
                new InetSocketAddress("127.0.0.1", listen), List.of(new PhasorGateway.Stream(
                        EgressSettings.of("cc", STREAM, pmus).withDataRate(subscribedRate).withWaitWindow(WINDOW),
                        PmuServer.Settings.tcp(new InetSocketAddress("127.0.0.1", 0))
                                .withUdp(new InetSocketAddress("127.0.0.1", 0)),
                        new PhasorGateway.Subscription("r2", "cc", subscribedRate, BOUND, 1,
                                ServiceClass.HRT))));
        if (egressFirst) {
            egress = PhasorGateway.start(egressSettings, api);
            open.add(egress);
            assertEquals(4, egress.subscriptionsWaiting(), "nothing declared yet: the subscriptions wait");
        }
        PhasorGateway ingest = PhasorGateway.start(new PhasorGateway.Settings(new InetSocketAddress("127.0.0.1", p1), "r1",
                List.of(new PhasorGateway.Device(DeviceSettings.of("pmu-sim", transport,
                        transport == DeviceTransport.TCP ? sim.server().tcpAddress() : sim.server().udpAddress(),
                        transport == DeviceTransport.TCP ? null : new InetSocketAddress("127.0.0.1", 0), STREAM), "utilityA/sub1", ServiceClass.HRT, BOUND)), null, List.of())
                .withReporting(GATEWAY, Duration.ofMillis(200)), api);
        open.add(ingest);
        await(() -> api.variables().stream().filter(v -> v.name().startsWith("utilityA/sub1/")).count() == 4,
                "the ingest declares both PMUs' samples and descriptions");

        if (!egressFirst) {
            egress = PhasorGateway.start(egressSettings, api);
            open.add(egress);
        }
        await(() -> egress.subscriptionsWaiting() == 0, "every subscription made");
        EgressStream stream = egress.streams().get(0);
        await(() -> stream.served() != null, "the egress learns both descriptions and serves");
        return stream;
    }

    @Test
    void everyValueAndTimestampArrivesBitIdenticalOverTcpAndUdpAtTheSubscribedRate() throws Exception {
        PmuSimSpec spec = spec(30);
        PmuSimulator sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(new InetSocketAddress("127.0.0.1", 0)));
        open.add(sim);
        EgressStream stream = network(sim, 10, DeviceTransport.TCP, false);
        ConfigFrame source = PmuSimulator.configFor(spec);

        try (Socket tcp = new Socket()) {
            tcp.connect(stream.server().tcpAddress(), 2_000);
            tcp.setSoTimeout(200);
            TcpFrames frames = new TcpFrames(tcp.getInputStream());
            OutputStream out = tcp.getOutputStream();
            out.write(command(CommandFrame.SEND_CONFIG_2));
            byte[] cfg = frames.next(FrameType.CONFIG_2, 5_000);
            ConfigFrame served = new ConfigFrameCodec().decode(ByteBuffer.wrap(cfg), 0, cfg.length).frame();
            assertEquals(source.pmus(), served.pmus(), "the served configuration is the PMUs' own, channel for channel");
            assertEquals(source.timeBase(), served.timeBase());
            assertEquals(STREAM, served.idCode());
            assertEquals(10, served.dataRate(), "announced at the subscribed rate");

            out.write(command(CommandFrame.DATA_ON));
            List<byte[]> data = new ArrayList<>();
            while (data.size() < 30) {
                data.add(frames.next(FrameType.DATA, 5_000));
            }
            assertBitIdentical(sim, spec, source, data, 10);
        }

        try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            udp.setSoTimeout(5_000);
            InetSocketAddress server = stream.server().udpAddress();
            byte[] on = command(CommandFrame.DATA_ON);
            udp.send(new DatagramPacket(on, on.length, server));
            List<byte[]> data = new ArrayList<>();
            byte[] buf = new byte[65_535];
            while (data.size() < 20) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                udp.receive(p);
                if (CommonHeader.type(ByteBuffer.wrap(buf), 0) == FrameType.DATA) {
                    data.add(Arrays.copyOf(buf, p.getLength()));
                }
            }
            assertBitIdentical(sim, spec, source, data, 10);
        }
        assertEquals(0, stream.count(EgressCounter.ABSENT_BLOCKS), "" + stream.counters());
        assertEquals(0, stream.count(EgressCounter.SAMPLES_LATE));
    }

    @Test
    void readOverUdpTheDeviceShowsInTheBrokerStreamingGoodDataAndItsFramesArriveBitIdentical() throws Exception {
        PmuSimSpec spec = spec(30);
        PmuSimulator sim = PmuSimulator.start(spec, PmuServer.Settings.udp(new InetSocketAddress("127.0.0.1", 0)));
        open.add(sim);
        EgressStream stream = network(sim, 10, DeviceTransport.UDP, true);
        try (Socket tcp = new Socket()) {
            tcp.connect(stream.server().tcpAddress(), 2_000);
            tcp.setSoTimeout(200);
            TcpFrames frames = new TcpFrames(tcp.getInputStream());
            tcp.getOutputStream().write(command(CommandFrame.DATA_ON));
            List<byte[]> data = new ArrayList<>();
            while (data.size() < 10) {
                data.add(frames.next(FrameType.DATA, 5_000));
            }
            assertBitIdentical(sim, spec, PmuSimulator.configFor(spec), data, 10);
        }

        ObjectMapper json = new ObjectMapper();
        long end = System.nanoTime() + 30 * S;
        JsonNode gateway = null;
        JsonNode device = null;
        while (device == null || !device.path("state").asText().equals("STREAMING")
                || !device.path("health").asText().equals("good") || device.path("dataRateHz").asInt() != 30
                || device.path("counters").path("DATA_FRAMES").asLong() == 0) {
            if (System.nanoTime() > end) {
                fail("GET /devices never showed pmu-sim streaming good data at 30 frames a second: " + gateway);
            }
            Thread.sleep(50);
            BrokerConnection.Answer a = api.request("GET", "/devices", null);
            assertEquals(200, a.status(), a.body());
            gateway = null;
            device = null;
            for (JsonNode g : json.readTree(a.body())) {
                if (g.path("gateway").asText().equals(GATEWAY)) {
                    gateway = g;
                    device = g.path("devices").path(0);
                }
            }
        }
        assertFalse(gateway.path("stale").asBoolean(), gateway.toString());
        assertEquals(1, gateway.path("devices").size(), "the ingest reads one device");
        assertEquals("pmu-sim", device.path("name").asText());
        assertEquals(2, device.path("pmus").asInt(), "the simulator's two PMUs");
        assertEquals(0, device.path("stat").path("word").asInt(), "the simulator's PMUs flag nothing");
        assertEquals(0, device.path("timeQuality").path("code").asInt(), "and their clock is locked");
        assertFalse(device.path("counters").has("DATA_STALE"), "no frame dropped as late: " + device);
        assertFalse(device.has("rejects"), "no frame refused: " + device);

        // the control center's gateway restarted: it takes its subscriptions again, it does not make them twice
        assertEquals(4, api.subscriptions().size(), "two PMUs' samples and descriptions");
        egress.close();
        egress = PhasorGateway.start(egressSettings, api);
        open.add(egress);
        assertEquals(0, egress.subscriptionsWaiting());
        assertEquals(4, api.subscriptions().size(), "the same four subscriptions after the restart");
        EgressStream again = egress.streams().get(0);
        await(() -> again.served() != null, "the restarted egress serves again");
    }

    /**
     * Each frame is the simulator's for its instant, and they follow one another at the rate: a gap
     * only where the simulator itself passed over instants (its thread late on a loaded machine).
     */
    private static void assertBitIdentical(PmuSimulator sim, PmuSimSpec spec, ConfigFrame source, List<byte[]> frames,
                                           int rate) {
        long previous = -1;
        long gaps = 0;
        for (byte[] f : frames) {
            ByteBuffer b = ByteBuffer.wrap(f);
            long soc = CommonHeader.soc(b, 0);
            int fraction = FracSec.fraction(CommonHeader.fracSec(b, 0));
            assertArrayEquals(PmuSimulator.dataFrame(spec, source, soc, fraction, 0), f,
                    "the frame of " + soc + "+" + fraction + "/" + spec.timeBase());
            long instant = soc * spec.timeBase() + fraction;
            if (previous >= 0) {
                long step = instant - previous;
                assertTrue(step > 0 && step % (spec.timeBase() / rate) == 0, "in order at the subscribed rate: " + step);
                gaps += step / (spec.timeBase() / rate) - 1;
            }
            previous = instant;
        }
        assertTrue(gaps <= sim.instantsSkipped(), gaps + " frames missing; the simulator skipped " + sim.instantsSkipped());
    }

    private static byte[] command(int code) {
        return CommandFrameCodec.encode(new CommandFrame(2, STREAM, System.currentTimeMillis() / 1000, 0, code));
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + 30 * S;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Whole frames from a TCP connection. */
    static final class TcpFrames {
        private final InputStream in;
        private final BlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
        private final StreamFramer framer = new StreamFramer((type, buffer, offset, length) -> {
            byte[] copy = new byte[length];
            buffer.get(offset, copy);
            frames.add(copy);
        });
        private final byte[] buf = new byte[8192];

        TcpFrames(InputStream in) {
            this.in = in;
        }

        /** The next frame of {@code type}, skipping others; fails after {@code millis}. */
        byte[] next(FrameType type, long millis) throws Exception {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() < end) {
                byte[] f = frames.poll();
                if (f != null) {
                    if (CommonHeader.type(ByteBuffer.wrap(f), 0) == type) {
                        return f;
                    }
                    continue;
                }
                try {
                    int n = in.read(buf);
                    if (n < 0) {
                        fail("the server closed the connection");
                    }
                    framer.accept(buf, 0, n);
                } catch (SocketTimeoutException e) {
                    // nothing yet
                }
            }
            throw new AssertionError("no " + type + " frame within " + millis + " ms");
        }
    }
}
