package org.gridstat.node.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gridstat.sim.reproduce.Ratatoskr;
import org.gridstat.sim.reproduce.RatatoskrEvaluation;
import org.gridstat.sim.reproduce.RatatoskrNetwork;
import org.gridstat.sim.reproduce.RatatoskrReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gridstat rpc-eval}: the Ratatoskr RPC evaluation in the simulator, beside the published figures. */
@Command(name = "rpc-eval", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Runs the Ratatoskr RPC evaluation in the simulator and prints it beside the published figures.",
        description = {"Calls an actuator (breaker.open) again and again from the control center's router to the"
                + " substation's, over 13 simulated routers in two disjoint paths (6 and 7 links of 1 ms), with the rpc"
                + " module's own client, server and 2WoPS endpoints on simulated time. Measures early success (answered"
                + " on the first try) against the analysis, retries per call, call times and at-most-once execution in"
                + " three sweeps: temporal redundancy (n copies 2 ms apart over one path, under omission f per link);"
                + " spatial redundancy (k paths, under 1 s outages at Poisson times, one every M seconds in the network, each"
                + " on one directed link at random); and the worst"
                + " call of no, spatial, temporal, and spatial + temporal redundancy under omission and outages"
                + " together, beside the published 939, 91, 977 and 24 ms.",
                "By default a short version (n 1 and 4 at 2 and 8 %%, k 1 and 2 at outages every 50 s, 1,000 calls per"
                        + " point: seconds); --full runs the published sweep (n 1, 2, 4, 8 at 1-8 %%; k 1 and 2 at outages"
                        + " every 10,000 to 50 s; 10,000 calls after 10,000 of warm-up: minutes). The same options give the"
                        + " same figures.",
                "--real also runs a few points on 13 real status routers on loopback (their link emulation: 1 ms,"
                        + " omission), with the rpc module's binding to the client API, and prints them beside the"
                        + " simulator's and the analysis's: a short run confirming the simulator. Real figures depend on"
                        + " the machine: run it on an idle one."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the evaluation ran (its tables say how the figures compare)",
                "1:writing the files failed", "2:bad options"})
final class RpcEvalCommand implements Callable<Integer> {
    static final int SHORT_CALLS = 1_000;
    static final int FULL_CALLS = 10_000;

    @Option(names = "--full", description = "The published sweep and number of calls, in place of the short version.")
    boolean full;

    @Option(names = "--calls", paramLabel = "N", description = "Calls counted per point (default: 1,000; with --full"
            + " 10,000). The full sweep warms up with the published 10,000 calls, the short version with a tenth of N.")
    Integer calls;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "The seed of the losses, outages and"
            + " gaps between calls (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Also writes " + RatatoskrReport.CSV + ", "
            + RatatoskrReport.MARKDOWN + " and the plots (PNG) into DIR.")
    Path out;

    @Option(names = "--real", description = "Also confirms a few points on real status routers on loopback.")
    boolean real;

    @Option(names = "--real-calls", paramLabel = "N", defaultValue = "600", description = "Calls counted per point of"
            + " --real, after a tenth of them as warm-up (default: ${DEFAULT-VALUE}).")
    int realCalls;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        int n = calls != null ? calls : full ? FULL_CALLS : SHORT_CALLS;
        if (n < 10 || n > 10_000_000) {
            stderr.println("--calls must be 10 to 10,000,000, got " + n);
            stderr.flush();
            return 2;
        }
        if (realCalls < 10 || realCalls > 100_000) {
            stderr.println("--real-calls must be 10 to 100,000, got " + realCalls);
            stderr.flush();
            return 2;
        }
        if (out != null) { // before minutes of simulation, not after
            try {
                java.nio.file.Files.createDirectories(out);
                if (!java.nio.file.Files.isWritable(out)) {
                    throw new java.io.IOException("not writable");
                }
            } catch (java.io.IOException | RuntimeException e) {
                stderr.println("--out " + out + ": cannot write there (" + e + ")");
                stderr.flush();
                return 1;
            }
        }
        RatatoskrEvaluation.Plan plan = full ? RatatoskrEvaluation.Plan.full(n, seed) : RatatoskrEvaluation.Plan.brief(n, seed);
        boolean console = System.console() != null;
        long started = System.nanoTime();
        int total = RatatoskrEvaluation.temporalExperiments(plan).size() + RatatoskrEvaluation.spatialExperiments(plan).size()
                + plan.combined().size() * RatatoskrEvaluation.CONFIGURATIONS.size();
        int[] done = {0};
        RatatoskrEvaluation.Results results = RatatoskrEvaluation.run(plan, System::nanoTime, (sweep, f) -> {
            done[0]++;
            if (console) { // a person watching; a log or a test gets the tables only
                stderr.print(String.format(Locale.ROOT, "\r%d of %d experiments (%s), %.0f s", done[0], total, sweep,
                        (System.nanoTime() - started) / 1e9));
                stderr.flush();
            }
        });
        if (console) {
            stderr.print("\r");
            stderr.flush();
        }
        long wall = System.nanoTime() - started;
        stdout.print(String.format(Locale.ROOT, "Ratatoskr RPC evaluation (%s), seed %d: %,d calls per point after %,d of"
                + " warm-up (%,d after %,d under outages), %.1f s%n%n", plan.name(), seed, plan.calls(), plan.warmUp(),
                plan.outageCalls(), plan.outageWarmUp(), wall / 1e9));
        stdout.println("Published: early success follows the analysis (the analysis column: a copy crosses h links with"
                + " probability (1 - f)^h, each link up a share 26 M/(26 M + 1 s) of the time (an outage every M in the network, each on one of its 26 directed links); a direction succeeds if any copy"
                + " over any path does; a call succeeds early if both directions do); worst calls 24 ms (spatial +"
                + " temporal), 91 ms (spatial), 977 ms (temporal), 939 ms (none). A try waits "
                + 2 * RatatoskrNetwork.LATENCY_BOUND / 1_000_000 + " ms, plus twice its copies' spread, for its answer;"
                + " up to " + Ratatoskr.RETRIES + " retries.");
        stdout.println();
        stdout.print(RatatoskrReport.markdown(results));
        if (out != null) {
            List<Path> written;
            try {
                written = RatatoskrReport.write(results, out);
            } catch (UncheckedIOException e) {
                stderr.println(e.getMessage());
                stderr.flush();
                return 1;
            }
            stdout.println("written to " + out + ": " + String.join(", ", written.stream()
                    .map(p -> p.getFileName().toString()).toList()));
        }
        if (real) {
            stdout.println();
            stdout.print(RealConfirmation.run(realCalls, seed, stderr));
        }
        stdout.flush();
        return 0;
    }
}
