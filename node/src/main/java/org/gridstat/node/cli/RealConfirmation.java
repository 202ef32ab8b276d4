package org.gridstat.node.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.gridstat.node.rpc.RealRatatoskrRun;
import org.gridstat.rpc.client.CallStatistics;
import org.gridstat.sim.reproduce.Ratatoskr;
import org.gridstat.sim.reproduce.RatatoskrEvaluation;

/**
 * {@code gridstat rpc-eval --real}: a few points of the Ratatoskr evaluation on 13 real status
 * routers on loopback, beside the simulator's figures for the same experiment and the analysis.
 */
final class RealConfirmation {
    /** Omission, paths, copies: one path with and without temporal copies, and both paths. */
    static final List<double[]> POINTS = List.of(new double[] {0.04, 1, 1}, new double[] {0.04, 1, 2},
            new double[] {0.04, 2, 1});

    private RealConfirmation() {
    }

    static String run(int calls, long seed, PrintWriter progress) {
        StringBuilder sb = new StringBuilder();
        sb.append("### On real status routers (loopback, link emulation 1 ms and omission per link; ")
                .append(String.format(Locale.ROOT, "%,d calls after %,d of warm-up", calls, calls / 10)).append(")\n\n");
        sb.append("| f, k, n | early success, real (95 %) | simulator | analysis | real − analysis | late frames / calls |"
                + " call time, real mean ± std | worst, real | actuator runs / calls run |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|\n");
        for (double[] p : POINTS) {
            double f = p[0];
            int k = (int) p[1];
            int n = (int) p[2];
            Ratatoskr.Experiment e = new Ratatoskr.Experiment(f, 0, 0, Ratatoskr.redundancy(k, n), calls / 10, calls,
                    RatatoskrEvaluation.OMISSION_GAP, seed);
            Ratatoskr.Figures sim = Ratatoskr.run(e);
            String row;
            try {
                progress.println("real routers: f " + f + ", k " + k + ", n " + n + " ...");
                progress.flush();
                RealRatatoskrRun.Result r = RealRatatoskrRun.run(f, 0, 0, e.redundancy(), calls / 10, calls, seed, null);
                CallStatistics st = r.statistics();
                double early = st.earlySuccessRate();
                double half = 1.96 * Math.sqrt(early * (1 - early) / Math.max(1, st.calls()));
                row = String.format(Locale.ROOT, "| %.0f %%, %d, %d | %.2f %% ± %.2f | %.2f %% | %.2f %% | %+.2f pp | %.3f |"
                                + " %.1f ± %.1f ms | %.1f ms | %d / %d |%n", 100 * f, k, n, 100 * early, 100 * half,
                        100 * sim.earlySuccess(), 100 * r.analysis(), 100 * (early - r.analysis()), r.lateShare(),
                        st.meanMillis(), st.stdDevMillis(), st.maxMillis(), r.executions(), r.executedCalls());
            } catch (Exception ex) {
                row = String.format(Locale.ROOT, "| %.0f %%, %d, %d | failed: %s | %.2f %% | | | | | | |%n", 100 * f, k, n,
                        ex.getMessage(), 100 * sim.earlySuccess());
            }
            sb.append(row);
        }
        sb.append("\nLate frames: events the routers dropped past their 12.5 ms bound and first answers that came after"
                + " a retry had left, over calls: each can have cost a call its early success (a busy machine's"
                + " scheduling, not the network's loss).\n");
        return sb.toString();
    }
}
