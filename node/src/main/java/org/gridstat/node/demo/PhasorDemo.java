package org.gridstat.node.demo;

import java.io.InputStream;
import java.io.PrintStream;
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
import org.HdrHistogram.Histogram;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
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

/**
 * The phasor path, shown: a simulated C37.118 stream of two PMUs → a substation gateway (a PDC
 * client over TCP) at r1 → a broker-admitted subscription over two disjoint paths of a diamond of
 * status routers → the control center's gateway at r4 → a C37.118 client over TCP. Each second it
 * prints the frames the client received, how many were the PMU's own bytes exactly, and their
 * latency from the frame's timestamp. Exit 0 if every frame arrived whole and bit-identical.
 */
public final class PhasorDemo {
    private static final int STREAM = 7;
    private static final int RATE = 30;
    private static final long S = 1_000_000_000L;

    private final int seconds;
    private final PrintStream out;
    private final Duration bound;
    private final Duration waitWindow;

    /** The demo as an operator would run it: class A's 50 ms deadline from the PMU, a 100 ms wait window. */
    public PhasorDemo(int seconds, PrintStream out) {
        this(seconds, out, Duration.ofMillis(50), Duration.ofMillis(100));
    }

    /**
     * @param bound      the samples' end-to-end deadline, from the PMU's timestamp
     * @param waitWindow how long the control center's gateway waits for a late PMU
     */
    public PhasorDemo(int seconds, PrintStream out, Duration bound, Duration waitWindow) {
        this.seconds = seconds;
        this.out = out;
        this.bound = bound;
        this.waitWindow = waitWindow;
    }

    /** The simulated stream: a float-polar PMU and an integer-rectangular one, at 30 frames a second. */
    static PmuSimSpec spec() {
        return new PmuSimSpec(STREAM, 2, RATE, 3_000_000, List.of(
                new SimulatedPmu("SUB1 PMU", STREAM, DataFormat.of(true, true, true, true), 6, 2, 1, NominalFrequency.HZ_60),
                new SimulatedPmu("SUB1 FEEDER", STREAM + 1, DataFormat.of(false, false, false, false), 3, 1, 1,
                        NominalFrequency.HZ_60)), 1);
    }

    public int run() throws Exception {
        Path zk = Files.createTempDirectory("gridstat-phasor-demo");
        List<AutoCloseable> open = new ArrayList<>();
        try {
            return run(zk, open);
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception e) {
                    out.println("closing: " + e);
                }
            }
            try (var files = Files.walk(zk)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private int run(Path zk, List<AutoCloseable> open) throws Exception {
        Map<String, Integer> ports = Map.of("r1", FreeUdpPorts.pick(), "r2", FreeUdpPorts.pick(), "r3",
                FreeUdpPorts.pick(), "r4", FreeUdpPorts.pick(), "cc", FreeUdpPorts.pick());
        Topology topology = DemoRun.topology();
        BrokerService broker = BrokerService.start(new BrokerService.Settings("phasor-demo", "", zk, 0,
                "/gridstat-phasor-demo", Duration.ofSeconds(3), new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 0), topology));
        open.add(broker);
        await(() -> broker.replica().isLeader());
        QosBroker leader = broker.replica().leading();
        Map<String, List<String>> next = Map.of("r1", List.of("r2", "r3"), "r2", List.of("r4"), "r3", List.of("r4"),
                "r4", List.of("cc"));
        for (String r : List.of("r1", "r2", "r3", "r4")) {
            String[] links = next.get(r).stream().map(n -> "name=" + n + " address=127.0.0.1:" + ports.get(n)
                    + " capacity=12500000").toArray(String[]::new);
            open.add(EmbeddedRouter.start(Map.of("node.id", r, "data.bind", "127.0.0.1:" + ports.get(r), "broker.address",
                    "127.0.0.1:" + leader.controlAddress().getPort(), "links", links)));
        }
        await(() -> List.of("r1", "r2", "r3", "r4").stream().allMatch(leader.control()::connected));
        BrokerConnection api = BrokerConnection.connect(URI.create("http://127.0.0.1:" + broker.apiAddress().getPort()));

        PmuSimSpec spec = spec();
        PmuSimulator sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(new InetSocketAddress("127.0.0.1", 0)));
        open.add(sim);
        PhasorGateway substation = PhasorGateway.start(new PhasorGateway.Settings(
                new InetSocketAddress("127.0.0.1", ports.get("r1")), "r1",
                List.of(new PhasorGateway.Device(DeviceSettings.of("pmu-sim", DeviceTransport.TCP,
                        sim.server().tcpAddress(), null, STREAM), "utilityA/sub1", ServiceClass.HRT, bound)),
                null, List.of()), api);
        open.add(substation);
        List<String> pmus = List.of("utilityA/sub1/SUB1_PMU", "utilityA/sub1/SUB1_FEEDER");
        await(() -> api.variables().stream().filter(v -> v.name().startsWith("utilityA/sub1/")).count() == 4);
        out.printf("PMU simulator: stream %d, 2 PMUs at %d frames/s on %s; the substation gateway publishes them at r1 as %s%n",
                STREAM, RATE, sim.server().tcpAddress(), pmus);

        PhasorGateway controlCenter = PhasorGateway.start(new PhasorGateway.Settings(null, null, List.of(),
                new InetSocketAddress("127.0.0.1", ports.get("cc")), List.of(new PhasorGateway.Stream(
                        EgressSettings.of("cc", STREAM, pmus).withDataRate(RATE).withWaitWindow(waitWindow),
                        PmuServer.Settings.tcp(new InetSocketAddress("127.0.0.1", 0)),
                        new PhasorGateway.Subscription("r4", "cc", RATE, bound.multipliedBy(2), 2, ServiceClass.HRT)))), api);
        open.add(controlCenter);
        EgressStream stream = controlCenter.streams().get(0);
        await(() -> stream.served() != null);
        out.printf("the control center's gateway subscribed over 2 disjoint paths and serves C37.118 stream %d on %s%n",
                STREAM, stream.server().tcpAddress());

        ConfigFrame cfg = PmuSimulator.configFor(spec);
        long identical = 0;
        long frames = 0;
        Histogram all = new Histogram(60_000_000_000L, 3);
        long absentBefore = 0;
        try (Socket client = new Socket()) {
            client.connect(stream.server().tcpAddress(), 2_000);
            client.setSoTimeout(100);
            client.getOutputStream().write(CommandFrameCodec.encode(new CommandFrame(2, STREAM,
                    System.currentTimeMillis() / 1000, 0, CommandFrame.DATA_ON)));
            out.println("a C37.118 client turned data on:");
            out.println("  time   frames   bit-identical   latency p50      p99      max   (frame timestamp to the client)");
            List<byte[]> got = new ArrayList<>();
            StreamFramer framer = new StreamFramer((type, b, off, len) -> {
                if (type == FrameType.DATA) {
                    byte[] f = new byte[len];
                    b.get(off, f);
                    got.add(f);
                }
            });
            InputStream in = client.getInputStream();
            byte[] buf = new byte[16_384];
            // a second to warm up (the first frames through a fresh JVM are compiled on the way), not measured
            long warm = System.nanoTime() + S;
            while (System.nanoTime() < warm) {
                try {
                    if (in.read(buf) < 0) {
                        out.println("the gateway closed the connection");
                        return 1;
                    }
                } catch (SocketTimeoutException e) {
                    // nothing yet
                }
            }
            absentBefore = stream.count(EgressCounter.ABSENT_BLOCKS);
            for (int second = 1; second <= seconds; second++) {
                long end = System.nanoTime() + S;
                Histogram h = new Histogram(60_000_000_000L, 3);
                long sameThisSecond = 0;
                int countThisSecond = 0;
                while (System.nanoTime() < end) {
                    try {
                        int n = in.read(buf);
                        if (n < 0) {
                            out.println("the gateway closed the connection");
                            return 1;
                        }
                        framer.accept(buf, 0, n);
                    } catch (SocketTimeoutException e) {
                        continue;
                    }
                    long now = SystemClock.INSTANCE.nanos();
                    for (byte[] f : got) {
                        ByteBuffer b = ByteBuffer.wrap(f);
                        long soc = CommonHeader.soc(b, 0);
                        int fraction = FracSec.fraction(CommonHeader.fracSec(b, 0));
                        long stamp = soc * S + fraction * (S / spec.timeBase());
                        h.recordValue(Math.max(0, now - stamp));
                        if (Arrays.equals(PmuSimulator.dataFrame(spec, cfg, soc, fraction, 0), f)) {
                            sameThisSecond++;
                        }
                        countThisSecond++;
                    }
                    got.clear();
                }
                all.add(h);
                identical += sameThisSecond;
                frames += countThisSecond;
                out.printf("%5d s %8d %15d   %9.3f ms %8.3f ms %8.3f ms%n", second, countThisSecond, sameThisSecond,
                        h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6);
            }
        }
        long absent = stream.count(EgressCounter.ABSENT_BLOCKS) - absentBefore;
        out.printf("summary: %d frames, %d bit-identical to the PMU's, %d PMU blocks absent; latency p50 %.3f ms, p99 %.3f ms%n",
                frames, identical, absent, all.getValueAtPercentile(50) / 1e6, all.getValueAtPercentile(99) / 1e6);
        boolean ok = frames >= (long) (seconds - 1) * RATE && identical == frames && absent == 0;
        return ok ? 0 : 1;
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + 30 * S;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the demo's network did not come up within 30 s");
            }
            Thread.sleep(20);
        }
    }
}
