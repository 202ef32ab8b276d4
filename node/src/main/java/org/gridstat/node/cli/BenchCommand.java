package org.gridstat.node.cli;

import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.bench.BenchRun;
import org.gridstat.node.bench.FloodRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

// Descriptions are one string per paragraph: picocli wraps them to the terminal's width.
@Command(name = "bench", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Forwarding benchmark on loopback: a status router node against a plain Netty relay and a C relay.",
        description = {"A load generator and a sink around a status router node, then"
                + " around a plain Netty UDP relay and a C relay (recvmmsg/sendmmsg in batches of 64, built with gcc at"
                + " run time; skipped with a message if gcc is missing), in the same run. For each, finds the highest"
                + " rate with less than 0.1 %% loss, then measures latency percentiles at half the router's rate; prints"
                + " them and the router's rate as a fraction of each relay's.",
                "The load is one BE flow, or with --mixed 30 flows across HRT, LRT and BE. --flood measures HRT"
                + " through a best-effort flood instead of searching rates.",
                "Takes about three minutes with the defaults (--flood: about 30 s per run); nothing else should load"
                + " the machine."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--step-seconds", defaultValue = "2", description = "Length of each rate step (default: ${DEFAULT-VALUE}).")
    double stepSeconds;

    @Option(names = "--rounds", defaultValue = "2", description = "Rate searches of the router and the relays, in turn;"
            + " the best round counts for each (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--latency-seconds", defaultValue = "5", description = "Length of the latency run (default: ${DEFAULT-VALUE}).")
    double latencySeconds;

    @Option(names = "--start-rate", defaultValue = "20000", description = "First rate tried, events/s (default: ${DEFAULT-VALUE}).")
    double startRate;

    @Option(names = "--max-rate", defaultValue = "2000000", description = "Highest rate tried, events/s (default: ${DEFAULT-VALUE}).")
    double maxRate;

    @Option(names = "--payload", defaultValue = "212", description = "Payload bytes; 212 makes 260-byte frames (default: ${DEFAULT-VALUE}).")
    int payload;

    @Option(names = "--isolate", description = "Run the router as its own process on CPU 1 and pin the generator, sinks"
            + " and Netty relay to CPU 0 (needs taskset and two CPUs): the router's latency without its neighbours. The C"
            + " relay then runs on CPU 1 too, so router / C relay still compares; router / Netty relay does not.")
    boolean isolate;

    @Option(names = "--wire-capture", description = "Also measure each hop on the wire: tcpdump on the loopback interface"
            + " stamps every frame entering and leaving the router (and the relays) in the kernel, so the hop's latency"
            + " excludes when the generator and sink threads run (needs tcpdump and root; not with --mixed).")
    boolean wireCapture;

    @Option(names = "--router-busy-poll", description = "The router's event loop polls without sleeping"
            + " (statusRouter.busyPoll); best with --isolate, which gives the router a CPU of its own.")
    boolean routerBusyPoll;

    @Option(names = "--no-udp-offload", description = "Without the kernel's UDP batching beyond sendmmsg/recvmmsg: the"
            + " router (statusRouter.udpOffload: false) neither sends runs of equal datagrams segmented (UDP_SEGMENT) nor"
            + " reads coalesced ones (UDP_GRO), and the load generators send each datagram on its own. For A/B runs.")
    boolean noUdpOffload;

    @Option(names = "--router-transport", defaultValue = "auto", description = "The router's transport: auto, epoll or nio (default: ${DEFAULT-VALUE}).")
    String routerTransport;

    @Option(names = "--no-c-relay", description = "Leave out the C relay target.")
    boolean noCRelay;

    @Option(names = "--batch", defaultValue = "0", description = "Batches: the generator packs the events each tick"
            + " sends into datagrams of up to this many bytes (1472: an Ethernet MTU; 65507: the largest UDP datagram,"
            + " for loopback), and the router's links pack to the same size, carry 10 Gbit/s and buffer 8,192 events a"
            + " flow (a tick's events arrive at once); 0 sends one event per datagram"
            + " (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--nats", description = "Also move the same messages through a NATS server (nats-server, installed"
            + " by scripts/setup --bench) from one publisher to one subscriber: messages/s, and latency at the router's"
            + " latency rate or half NATS's own, whichever is lower. Skipped with a message if nats-server is missing;"
            + " not with --flood.")
    boolean nats;

    @Option(names = "--mixed", description = "Mixed load through the router: 20 variables (6 HRT and 6 LRT with 50 and"
            + " 100 ms deadlines in their headers, 8 BE), 30 flows on two out-links with a sink each, 10 variables on both"
            + " (multicast), 13 flows rate-filtered (subscriptions of 1-240 Hz), buffers of 256 events. Rates are events"
            + " in (offered); loss counts, per flow, the frames its sink should have got after filtering and did not."
            + " Also reports events out, latency by class and the router's allocation per event in. The relays forward"
            + " the same frames, unfiltered, to one sink.")
    boolean mixed;

    @Option(names = "--flood", description = "HRT through a flood instead of the rate search: each run starts a new"
            + " router process (a cold JVM) with one 10 Mbit/s out-link, an HRT flow at 60 Hz within its reservation (a"
            + " 50 ms deadline in each header) and a BE flood at 10x the link's capacity on the same link. Reports HRT"
            + " samples sent and received, deadline misses (the router's counter, and samples late or lost at the"
            + " sink), latency p50/p99/max (source timestamp to sink), BE offered and delivered rates. Uses"
            + " --flood-seconds, --runs, --payload, --isolate (router on CPU 1) and the --router-* options. The router"
            + " has a priority port and the HRT publisher sends to it, unless --flood-shared-port.")
    boolean flood;

    @Option(names = "--flood-shared-port", description = "With --flood: the router has no priority port, and HRT"
            + " shares the data port (and its kernel queue) with the flood.")
    boolean floodSharedPort;

    @Option(names = "--flood-seconds", defaultValue = "20", description = "Length of each flood; the HRT flow sends"
            + " 60 x this + 1 samples (default: ${DEFAULT-VALUE}, i.e. 1,201 samples).")
    double floodSeconds;

    @Option(names = "--runs", defaultValue = "3", description = "Flood runs, each on a new router process (default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() throws Exception {
        if (stepSeconds <= 0 || latencySeconds <= 0 || startRate <= 0 || maxRate < startRate || payload < 0 || payload > 1424
                || rounds < 1 || floodSeconds <= 0 || runs < 1) {
            System.err.println("bench: durations, rates, --rounds and --runs must be positive, --max-rate >= --start-rate,"
                    + " --payload 0..1424");
            return 2;
        }
        if (batch != 0 && (batch < 1472 || batch > 65507)) {
            System.err.println("bench: --batch is 0 (off) or 1472..65507 bytes");
            return 2;
        }
        if (batch != 0 && wireCapture) {
            System.err.println("bench: --wire-capture pairs single-event datagrams: run it without --batch");
            return 2;
        }
        if (flood && (nats || batch != 0)) {
            System.err.println("bench: --nats and --batch go with the rate search, not --flood");
            return 2;
        }
        if (mixed && flood) {
            System.err.println("bench: --mixed and --flood are separate runs: choose one");
            return 2;
        }
        if (flood && wireCapture) {
            System.err.println("bench: --wire-capture measures the rate-search targets, not --flood");
            return 2;
        }
        if (mixed && wireCapture) {
            System.err.println("bench: --wire-capture pairs frames by sequence number, which the mixed load's 20 variables"
                    + " share: run it without --mixed");
            return 2;
        }
        if (wireCapture && !onPath("tcpdump")) {
            System.err.println("bench: --wire-capture runs tcpdump, which is not installed (scripts/setup --bench installs it)");
            return 2;
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        if (flood) {
            new FloodRun(new FloodRun.Settings(floodSeconds, runs, payload, isolate, routerTransport, routerBusyPoll,
                    floodSharedPort, !noUdpOffload),
                    System.out).run();
            return 0;
        }
        new BenchRun(Distribution.bundles(), new BenchRun.Settings(stepSeconds, latencySeconds, startRate, maxRate, payload,
                isolate, routerTransport, wireCapture, routerBusyPoll, rounds, !noCRelay, mixed, batch, nats, !noUdpOffload),
                System.out).run();
        return 0;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program)));
    }
}
