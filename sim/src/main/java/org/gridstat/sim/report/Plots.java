package org.gridstat.sim.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A run's plots, PNG, one point per subscription per report interval (at the interval's start):
 * {@code latency.png} (p99 solid, max dashed, per subscription), {@code throughput.png} (samples
 * delivered per second) and {@code drops.png} (the routers' overflow drops solid and deadline
 * misses dashed). Drawn headless.
 */
public final class Plots {
    public static final int WIDTH = 1000;
    public static final int HEIGHT = 500;
    private static final double NS_PER_S = 1e9;
    private static final double NS_PER_MS = 1e6;
    private static final BasicStroke SOLID = new BasicStroke(1.5f);
    /** The stroke of an analysis or a bound beside measured points. */
    public static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Plots() {
    }

    /**
     * Writes the plots into {@code dir} (made if missing) and returns their files; none if no
     * subscription was admitted.
     */
    public static List<Path> write(SimulationResult r, Path dir) {
        Map<String, List<FlowInterval>> bySubscription = new LinkedHashMap<>();
        for (FlowInterval row : r.rows()) {
            bySubscription.computeIfAbsent(row.subscription(), k -> new ArrayList<>()).add(row);
        }
        if (bySubscription.isEmpty()) {
            return List.of();
        }
        String title = r.scenario() + " (seed " + r.seed() + ")";
        XYChart latency = chart(title + ": latency, p99 and max", "latency (ms)");
        XYChart throughput = chart(title + ": throughput", "samples delivered per second");
        XYChart drops = chart(title + ": drops in the routers, overflow and deadline misses", "samples per interval");
        int i = 0;
        for (Map.Entry<String, List<FlowInterval>> e : bySubscription.entrySet()) {
            Color color = latency.getStyler().getSeriesColors()[i++ % latency.getStyler().getSeriesColors().length];
            String label = e.getKey();
            List<FlowInterval> rows = e.getValue();
            // an interval without deliveries has no latency: a gap, not a zero
            series(latency, label + " p99", rows, f -> f.delivered() == 0 ? Double.NaN : f.latencyP99Nanos() / NS_PER_MS,
                    color, SOLID);
            series(latency, label + " max", rows, f -> f.delivered() == 0 ? Double.NaN : f.latencyMaxNanos() / NS_PER_MS,
                    color, DASHED);
            series(throughput, label, rows, f -> f.delivered() / ((f.toNanos() - f.fromNanos()) / NS_PER_S), color, SOLID);
            series(drops, label + " overflow", rows, f -> f.overflowDrops(), color, SOLID);
            series(drops, label + " misses", rows, f -> f.deadlineMisses(), color, DASHED);
        }
        for (XYChart c : List.of(latency, throughput, drops)) {
            if (c.getSeriesMap().values().stream().noneMatch(s -> s.getYMax() > 0)) {
                c.getStyler().setYAxisMax(1.0); // all zero: the line along the bottom, not in the middle
            }
        }
        return List.of(save(latency, dir.resolve("latency.png")), save(throughput, dir.resolve("throughput.png")),
                save(drops, dir.resolve("drops.png")));
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("simulated time (s)")
                .yAxisTitle(yTitle).build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setYAxisMin(0.0);
        return c;
    }

    private static void series(XYChart c, String name, List<FlowInterval> rows, ToDoubleFunction<FlowInterval> y,
                               Color color, BasicStroke stroke) {
        double[] xs = new double[rows.size()];
        double[] ys = new double[rows.size()];
        boolean any = false;
        for (int i = 0; i < xs.length; i++) {
            xs[i] = rows.get(i).fromNanos() / NS_PER_S;
            ys[i] = y.applyAsDouble(rows.get(i));
            any |= !Double.isNaN(ys[i]);
        }
        if (!any) {
            ys[0] = 0; // XChart needs one value to scale an axis by; no latency shows at 0
        }
        XYSeries s = c.addSeries(name, xs, ys);
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setLineStyle(stroke);
        s.setMarker(rows.size() <= 60 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
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
}
