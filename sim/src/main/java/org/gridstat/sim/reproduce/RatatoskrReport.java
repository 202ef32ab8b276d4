package org.gridstat.sim.reproduce;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.gridstat.rpc.client.CallOutcome;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The Ratatoskr evaluation's outputs: markdown tables (ours beside the analysis and the published
 * worst calls), one CSV row per experiment, and PNG plots. Figures print with a point and fixed
 * decimals whatever the locale, so the same results give the same bytes.
 */
public final class RatatoskrReport {
    public static final String CSV = "ratatoskr.csv";
    public static final String MARKDOWN = "ratatoskr.md";
    public static final String TEMPORAL_PLOT = "ratatoskr-temporal.png";
    public static final String SPATIAL_PLOT = "ratatoskr-spatial.png";
    public static final String RETRIES_PLOT = "ratatoskr-retries.png";
    public static final String CALL_TIME_PLOT = "ratatoskr-call-time.png";

    /** Plots' own dashes; reading it also sets AWT headless first, as Plots does. */
    private static final BasicStroke DASHED = org.gridstat.sim.report.Plots.DASHED;

    private RatatoskrReport() {
    }

    // --- markdown --------------------------------------------------------------------------------

    /** Every table; the cost table only if the sweeps were timed. */
    public static String markdown(RatatoskrEvaluation.Results r) {
        StringBuilder sb = new StringBuilder();
        RatatoskrEvaluation.Plan p = r.plan();
        if (!r.temporal().isEmpty()) {
            sb.append("### Temporal redundancy under omission (path A, copies 2 ms apart; ").append(calls(p.calls(), p.warmUp()))
                    .append(", a call ").append(RatatoskrEvaluation.OMISSION_GAP).append(" after the last answer)\n\n")
                    .append(temporalTable(r.temporal())).append('\n');
        }
        if (!r.spatial().isEmpty()) {
            sb.append("### Spatial redundancy under outages (1 s each, at Poisson times in the network, each on one of its ")
                    .append(RatatoskrNetwork.DIRECTED_LINKS).append(" directed links; no omission; ")
                    .append(calls(p.outageCalls(), p.outageWarmUp())).append(", a call ")
                    .append(RatatoskrEvaluation.OUTAGE_GAP).append(" after the last answer)\n\n")
                    .append(spatialTable(r.spatial())).append('\n');
        }
        if (!r.worst().isEmpty()) {
            sb.append("### Worst call time under omission and outages together (all with up to ").append(Ratatoskr.RETRIES)
                    .append(" retries; ").append(calls(p.outageCalls(), p.outageWarmUp())).append(")\n\n")
                    .append(worstTable(r.worst())).append('\n');
        }
        if (r.costs().stream().anyMatch(c -> c.wallNanos() > 0)) {
            sb.append("What it cost:\n\n").append(costTable(r.costs())).append('\n');
        }
        return sb.toString();
    }

    private static String calls(int calls, int warmUp) {
        return String.format(Locale.ROOT, "%,d calls after %,d of warm-up", calls, warmUp);
    }

    static String temporalTable(List<Ratatoskr.Figures> rows) {
        Reproductions.Table t = new Reproductions.Table("copies n", "omission f", "early success (95 %)", "analysis",
                "ours - analysis", "retries per call", "call time, mean ± std", "worst call", "actuator runs / calls run / made");
        for (Ratatoskr.Figures f : rows) {
            t.row(String.valueOf(f.experiment().redundancy().copies()), Reproductions.pct0(f.experiment().omission()),
                    early(f), pct2(f.analysis()), difference(f), fixed(f.retriesPerCall(), 3), meanStd(f),
                    fixed(f.maxMillis(), 1) + " ms", atMostOnce(f));
        }
        return t.toString();
    }

    static String spatialTable(List<Ratatoskr.Figures> rows) {
        Reproductions.Table t = new Reproductions.Table("paths k", "an outage every (network / link)", "link up",
                "early success (95 %)",
                "analysis", "ours - analysis", "retries per call", "call time, mean ± std", "worst call",
                "actuator runs / calls run / made");
        for (Ratatoskr.Figures f : rows) {
            Ratatoskr.Experiment e = f.experiment();
            t.row(String.valueOf(e.redundancy().paths()), String.format(Locale.ROOT, "%,d s / %,d s",
                    e.outageEveryNanos() / RatatoskrNetwork.DIRECTED_LINKS / S, e.outageEveryNanos() / S),
                    fixed(100 * RatatoskrNetwork.up(e.outageEveryNanos(), e.outageForNanos()), 3) + " %", early(f),
                    pct2(f.analysis()), difference(f), fixed(f.retriesPerCall(), 3), meanStd(f),
                    fixed(f.maxMillis(), 1) + " ms", atMostOnce(f));
        }
        return t.toString();
    }

    static String worstTable(List<RatatoskrEvaluation.Worst> rows) {
        Reproductions.Table t = new Reproductions.Table("configuration", "faults", "worst call, published", "worst call, ours",
                "99.9 % / 99.99 % of calls within", "call time, mean ± std", "early success (95 %)", "analysis",
                "retries per call", "unanswered", "actuator runs / calls run / made");
        for (RatatoskrEvaluation.Worst w : rows) {
            Ratatoskr.Figures f = w.figures();
            t.row(w.configuration().name(), w.faults().toString(), fixed(w.configuration().publishedWorstMillis(), 0) + " ms",
                    fixed(f.maxMillis(), 1) + " ms", fixed(f.p999Millis(), 1) + " / " + fixed(f.p9999Millis(), 1) + " ms",
                    meanStd(f), early(f), pct2(f.analysis()), fixed(f.retriesPerCall(), 3),
                    String.valueOf(f.calls() - f.outcome(CallOutcome.SUCCESS)), atMostOnce(f));
        }
        return t.toString();
    }

    static String costTable(List<RatatoskrEvaluation.Cost> costs) {
        Reproductions.Table t = new Reproductions.Table("sweep", "experiments", "events", "simulated", "wall time",
                "events per second");
        for (RatatoskrEvaluation.Cost c : costs) {
            t.row(c.sweep(), String.valueOf(c.experiments()), String.format(Locale.ROOT, "%,d", c.events()),
                    String.format(Locale.ROOT, "%,.0f s", c.simulatedNanos() / 1e9),
                    String.format(Locale.ROOT, "%.1f s", c.wallNanos() / 1e9),
                    String.format(Locale.ROOT, "%,.0f", c.eventsPerSecond()));
        }
        return t.toString();
    }

    private static String early(Ratatoskr.Figures f) {
        return pct2(f.earlySuccess()) + " ± " + fixed(100 * f.halfWidth95(), 2);
    }

    private static String difference(Ratatoskr.Figures f) {
        double sigma = f.sigmaOfAnalysis();
        return String.format(Locale.ROOT, "%+.2f pp (%s)", 100 * f.difference(),
                sigma == 0 ? "-" : String.format(Locale.ROOT, "%+.1f σ", f.difference() / sigma));
    }

    private static String meanStd(Ratatoskr.Figures f) {
        return fixed(f.meanMillis(), 1) + " ± " + fixed(f.stdDevMillis(), 1) + " ms";
    }

    private static String atMostOnce(Ratatoskr.Figures f) {
        return f.executions() + " / " + f.executedCalls() + " / " + f.callsMade() + (f.atMostOnce() ? "" : " (BROKEN)");
    }

    private static String pct2(double ratio) {
        return fixed(100 * ratio, 2) + " %";
    }

    private static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    // --- CSV -------------------------------------------------------------------------------------

    static final String CSV_HEADER = "sweep,configuration,omission,outage_every_per_link_s,outage_for_s,paths,copies,spacing_ms,"
            + "retries,gap_s,gap_exponential,warmup,calls,seed,early_success,half_width_95,analysis,difference_pp,"
            + "sigmas,retries_per_call,mean_ms,std_ms,p99_9_ms,p99_99_ms,max_ms,published_worst_ms,success,timeout,unknown_delivery,"
            + "other_outcomes,calls_made,executions,executed_calls,simulated_s,events";

    /** One line per experiment, a header first. */
    public static String csv(RatatoskrEvaluation.Results r) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        r.temporal().forEach(f -> csvRow(sb, "temporal", "", -1, f));
        r.spatial().forEach(f -> csvRow(sb, "spatial", "", -1, f));
        r.worst().forEach(w -> csvRow(sb, "worst", w.configuration().name(), w.configuration().publishedWorstMillis(),
                w.figures()));
        return sb.toString();
    }

    private static void csvRow(StringBuilder sb, String sweep, String configuration, double publishedWorst,
                               Ratatoskr.Figures f) {
        Ratatoskr.Experiment e = f.experiment();
        long other = f.calls() - f.outcome(CallOutcome.SUCCESS) - f.outcome(CallOutcome.TIMEOUT)
                - f.outcome(CallOutcome.UNKNOWN_DELIVERY);
        double sigma = f.sigmaOfAnalysis();
        List<String> cells = List.of(sweep, configuration.isEmpty() ? "" : '"' + configuration + '"',
                fixed(e.omission(), 4), fixed(e.outageEveryNanos() / 1e9, 3), fixed(e.outageForNanos() / 1e9, 3),
                String.valueOf(e.redundancy().paths()), String.valueOf(e.redundancy().copies()),
                fixed(e.redundancy().spacingNanos() / 1e6, 1), String.valueOf(e.redundancy().retries()),
                fixed(e.gap().nanos() / 1e9, 3), String.valueOf(e.gap().exponential()), String.valueOf(e.warmUpCalls()),
                String.valueOf(e.calls()), String.valueOf(e.seed()), fixed(f.earlySuccess(), 6), fixed(f.halfWidth95(), 6),
                fixed(f.analysis(), 6), fixed(100 * f.difference(), 3), sigma == 0 ? "" : fixed(f.difference() / sigma, 2),
                fixed(f.retriesPerCall(), 6), fixed(f.meanMillis(), 3), fixed(f.stdDevMillis(), 3),
                fixed(f.p999Millis(), 3), fixed(f.p9999Millis(), 3), fixed(f.maxMillis(), 3),
                publishedWorst < 0 ? "" : fixed(publishedWorst, 0), String.valueOf(f.outcome(CallOutcome.SUCCESS)),
                String.valueOf(f.outcome(CallOutcome.TIMEOUT)), String.valueOf(f.outcome(CallOutcome.UNKNOWN_DELIVERY)),
                String.valueOf(other), String.valueOf(f.callsMade()), String.valueOf(f.executions()),
                String.valueOf(f.executedCalls()), fixed(f.simulatedNanos() / 1e9, 3), String.valueOf(f.events()));
        sb.append(String.join(",", cells)).append('\n');
    }

    // --- files -----------------------------------------------------------------------------------

    /** Writes the CSV, the markdown and the plots into {@code dir} (made if missing); returns the files. */
    public static List<Path> write(RatatoskrEvaluation.Results r, Path dir) {
        List<Path> out = new ArrayList<>();
        out.add(text(dir.resolve(CSV), csv(r)));
        out.add(text(dir.resolve(MARKDOWN), markdown(r)));
        out.addAll(plots(r, dir));
        return out;
    }

    /** The plots the results have points for. */
    public static List<Path> plots(RatatoskrEvaluation.Results r, Path dir) {
        List<Path> out = new ArrayList<>();
        if (!r.temporal().isEmpty()) {
            out.add(save(temporalPlot(r.temporal()), dir.resolve(TEMPORAL_PLOT)));
            out.add(save(byOmission(r.temporal(), "Retries per call", "retries per call (analysis dashed: 1/p − 1)",
                    Ratatoskr.Figures::retriesPerCall, f -> 1 / f.analysis() - 1), dir.resolve(RETRIES_PLOT)));
            out.add(save(byOmission(r.temporal(), "Mean call time", "mean call time (ms)", Ratatoskr.Figures::meanMillis,
                    null), dir.resolve(CALL_TIME_PLOT)));
        }
        if (!r.spatial().isEmpty()) {
            out.add(save(spatialPlot(r.spatial()), dir.resolve(SPATIAL_PLOT)));
        }
        return out;
    }

    private static XYChart temporalPlot(List<Ratatoskr.Figures> rows) {
        XYChart c = chart("Early success under omission, n temporal copies over one path (bars: 95 %; dashed: analysis)",
                "omission per link (%)", "early success (%)");
        int i = 0;
        for (List<Ratatoskr.Figures> group : groups(rows, f -> f.experiment().redundancy().copies())) {
            Color color = color(c, i++);
            String n = "n = " + group.get(0).experiment().redundancy().copies();
            double[] x = values(group, f -> Math.round(1000 * f.experiment().omission()) / 10.0);
            measured(c, n, x, values(group, f -> 100 * f.earlySuccess()), values(group, f -> 100 * f.halfWidth95()), color);
            analysis(c, n + " analysis", x, values(group, f -> 100 * f.analysis()), color);
        }
        return c;
    }

    private static XYChart spatialPlot(List<Ratatoskr.Figures> rows) {
        XYChart c = chart("Early success under 1 s outages, k disjoint paths (bars: 95 %; dashed: analysis)",
                "mean time between outages in the network (s, log)", "early success (%)");
        c.getStyler().setXAxisLogarithmic(true);
        int i = 0;
        for (List<Ratatoskr.Figures> group : groups(rows, f -> f.experiment().redundancy().paths())) {
            Color color = color(c, i++);
            String k = "k = " + group.get(0).experiment().redundancy().paths();
            double[] x = values(group, f -> f.experiment().outageEveryNanos() / 1e9 / RatatoskrNetwork.DIRECTED_LINKS);
            measured(c, k, x, values(group, f -> 100 * f.earlySuccess()), values(group, f -> 100 * f.halfWidth95()), color);
            analysis(c, k + " analysis", x, values(group, f -> 100 * f.analysis()), color);
        }
        return c;
    }

    private static XYChart byOmission(List<Ratatoskr.Figures> rows, String title, String yTitle,
                                      ToDoubleFunction<Ratatoskr.Figures> y, ToDoubleFunction<Ratatoskr.Figures> analysis) {
        XYChart c = chart(title + " under omission, n temporal copies over one path", "omission per link (%)", yTitle);
        int i = 0;
        for (List<Ratatoskr.Figures> group : groups(rows, f -> f.experiment().redundancy().copies())) {
            Color color = color(c, i++);
            String n = "n = " + group.get(0).experiment().redundancy().copies();
            double[] x = values(group, f -> Math.round(1000 * f.experiment().omission()) / 10.0);
            measured(c, n, x, values(group, y), null, color);
            if (analysis != null) {
                analysis(c, n + " analysis", x, values(group, analysis), color);
            }
        }
        return c;
    }

    /** Rows with the same key, in the order the keys first appear. */
    private static List<List<Ratatoskr.Figures>> groups(List<Ratatoskr.Figures> rows,
                                                        java.util.function.ToIntFunction<Ratatoskr.Figures> key) {
        java.util.Map<Integer, List<Ratatoskr.Figures>> m = new java.util.LinkedHashMap<>();
        rows.forEach(f -> m.computeIfAbsent(key.applyAsInt(f), k -> new ArrayList<>()).add(f));
        return new ArrayList<>(m.values());
    }

    private static double[] values(List<Ratatoskr.Figures> rows, ToDoubleFunction<Ratatoskr.Figures> f) {
        return rows.stream().mapToDouble(f).toArray();
    }

    private static XYChart chart(String title, String xTitle, String yTitle) {
        XYChart c = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setErrorBarsColorSeriesColor(true);
        c.getStyler().setXAxisDecimalPattern("#,##0.#");
        return c;
    }

    private static Color color(XYChart c, int i) {
        Color[] colors = c.getStyler().getSeriesColors();
        return colors[i % colors.length];
    }

    private static void measured(XYChart c, String name, double[] x, double[] y, double[] errors, Color color) {
        XYSeries s = errors == null ? c.addSeries(name, x, y) : c.addSeries(name, x, y, errors);
        if (errors != null) {
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter); // points and bars; the analysis is the line
        }
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setMarker(SeriesMarkers.CIRCLE);
    }

    private static void analysis(XYChart c, String name, double[] x, double[] y, Color color) {
        XYSeries s = c.addSeries(name, x, y);
        s.setLineColor(color);
        s.setLineStyle(DASHED);
        s.setMarker(SeriesMarkers.NONE);
    }

    private static Path save(XYChart chart, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static Path text(Path file, String content) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
