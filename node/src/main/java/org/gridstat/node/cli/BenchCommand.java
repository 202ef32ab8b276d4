package org.gridstat.node.cli;

import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.bench.BenchRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Forwarding benchmark on loopback: a load generator and a sink around a status router node,",
                "then around a plain Netty UDP relay, in the same run. For each, finds the highest rate with",
                "less than 0.1 %% loss, then measures latency percentiles at half that rate; prints both and",
                "the ratio. Takes about two minutes with the defaults; nothing else should load the machine."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--step-seconds", defaultValue = "2", description = "Length of each rate step (default: ${DEFAULT-VALUE}).")
    double stepSeconds;

    @Option(names = "--rounds", defaultValue = "2", description = {"Rate searches of the router and the relay, alternating;",
            "the best round counts for each (default: ${DEFAULT-VALUE})."})
    int rounds;

    @Option(names = "--latency-seconds", defaultValue = "5", description = "Length of the latency run (default: ${DEFAULT-VALUE}).")
    double latencySeconds;

    @Option(names = "--start-rate", defaultValue = "20000", description = "First rate tried, events/s (default: ${DEFAULT-VALUE}).")
    double startRate;

    @Option(names = "--max-rate", defaultValue = "2000000", description = "Highest rate tried, events/s (default: ${DEFAULT-VALUE}).")
    double maxRate;

    @Option(names = "--payload", defaultValue = "212", description = "Payload bytes; 212 makes 260-byte frames (default: ${DEFAULT-VALUE}).")
    int payload;

    @Option(names = "--isolate", description = {"Run the router as its own process on CPU 1 and pin the generator, sink",
            "and relay to CPU 0 (needs taskset and two CPUs): the router's latency without its neighbours."})
    boolean isolate;

    @Option(names = "--wire-capture", description = {"Also measure each hop on the wire: tcpdump on the loopback interface",
            "stamps every frame entering and leaving the router (and the relay) in the kernel, so the",
            "hop's latency excludes when the generator and sink threads run (needs tcpdump and root)."})
    boolean wireCapture;

    @Option(names = "--router-busy-poll", description = {"The router's event loop polls without sleeping (statusRouter.busyPoll);",
            "best with --isolate, which gives the router a CPU of its own."})
    boolean routerBusyPoll;

    @Option(names = "--router-transport", defaultValue = "auto", description = "The router's transport: auto, epoll or nio (default: ${DEFAULT-VALUE}).")
    String routerTransport;

    @Override
    public Integer call() throws Exception {
        if (stepSeconds <= 0 || latencySeconds <= 0 || startRate <= 0 || maxRate < startRate || payload < 0 || payload > 1424
                || rounds < 1) {
            System.err.println("bench: durations, rates and --rounds must be positive, --max-rate >= --start-rate,"
                    + " --payload 0..1424");
            return 2;
        }
        if (wireCapture && !onPath("tcpdump")) {
            System.err.println("bench: --wire-capture runs tcpdump, which is not installed (scripts/setup --bench installs it)");
            return 2;
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        new BenchRun(Distribution.bundles(), new BenchRun.Settings(stepSeconds, latencySeconds, startRate, maxRate, payload, isolate, routerTransport,
                wireCapture, routerBusyPoll, rounds),
                System.out).run();
        return 0;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program)));
    }
}
