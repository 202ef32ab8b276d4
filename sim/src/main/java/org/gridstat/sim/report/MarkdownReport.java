package org.gridstat.sim.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;

/**
 * A run as a markdown page: what the broker answered each subscription, each admitted
 * subscription's figures over the whole run, each link's and each raw source's, and the plots.
 * The same run gives the same bytes.
 */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    /** The page; {@code images} are PNG file names beside it, shown at the end. */
    public static String render(SimulationResult r, List<String> images) {
        StringBuilder b = new StringBuilder();
        b.append("# Simulation: ").append(cell(r.scenario())).append("\n\n");
        b.append("Seed ").append(r.seed()).append(", ").append(Units.seconds(r.durationNanos()))
                .append(" s simulated, ").append(r.events()).append(" events run.\n\n");
        b.append("## Admissions\n\n");
        if (r.admissions().isEmpty()) {
            b.append("No subscriptions.\n\n");
        } else {
            b.append("| subscription | outcome |\n|---|---|\n");
            r.admissions().forEach((label, outcome) -> b.append("| ").append(cell(label)).append(" | ").append(cell(outcome))
                    .append(" |\n"));
            b.append('\n');
        }
        b.append("## Subscriptions\n\n").append(summaryTable(r)).append('\n');
        b.append("## Links\n\n");
        b.append("| link | datagrams sent | delivered | lost in queue | lost on wire | lost while down | packets on wire"
                + " | bytes on wire | bytes/s |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (Map.Entry<String, SimulationResult.LinkFigures> e : r.links().entrySet()) {
            SimulationResult.LinkFigures l = e.getValue();
            b.append("| ").append(cell(e.getKey())).append(" | ").append(l.datagramsSent()).append(" | ")
                    .append(l.datagramsDelivered()).append(" | ").append(l.lostToQueue()).append(" | ").append(l.lostOnWire())
                    .append(" | ").append(l.lostDown()).append(" | ").append(l.packetsOnWire()).append(" | ")
                    .append(l.bytesOnWire()).append(" | ").append(Units.perSecond(l.bytesOnWire(), r.durationNanos()))
                    .append(" |\n");
        }
        b.append("\n## Raw sources\n\n");
        if (r.raw().isEmpty()) {
            b.append("None.\n");
        } else {
            b.append("| source | sent | bytes sent | delivered | bytes delivered | delivered % |\n"
                    + "|---|--:|--:|--:|--:|--:|\n");
            r.raw().forEach((label, f) -> b.append("| ").append(cell(label)).append(" | ").append(f.sent()).append(" | ")
                    .append(f.sentBytes()).append(" | ").append(f.delivered()).append(" | ").append(f.deliveredBytes())
                    .append(" | ").append(Units.percent(f.delivered(), f.sent())).append(" |\n"));
        }
        if (!images.isEmpty()) {
            b.append("\n## Plots\n\n");
            for (String image : images) {
                String name = image.replaceFirst("\\.png$", "");
                b.append("![").append(name).append("](").append(image).append(")\n\n");
            }
        }
        return b.toString();
    }

    /**
     * One row per admitted subscription over the whole run: samples offered and delivered, late,
     * dropped by the routers, and latency.
     */
    public static String summaryTable(SimulationResult r) {
        if (r.summaries().isEmpty()) {
            return "No subscription was admitted.\n";
        }
        StringBuilder b = new StringBuilder("| subscription | offered | delivered | delivered % | late | overflow drops"
                + " | deadline misses | copies lost | latency p50 ms | p99 ms | max ms |\n"
                + "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        // In the admissions table's order: by label.
        for (FlowInterval s : r.summaries().stream()
                .sorted(java.util.Comparator.comparing(FlowInterval::subscription)).toList()) {
            b.append("| ").append(cell(s.subscription())).append(" | ").append(s.offered()).append(" | ")
                    .append(s.delivered()).append(" | ").append(Units.percent(s.delivered(), s.offered())).append(" | ")
                    .append(s.late()).append(" | ").append(s.overflowDrops()).append(" | ").append(s.deadlineMisses())
                    .append(" | ").append(s.copiesLost())
                    .append(" | ").append(Units.millis(s.latencyP50Nanos())).append(" | ")
                    .append(Units.millis(s.latencyP99Nanos())).append(" | ").append(Units.millis(s.latencyMaxNanos()))
                    .append(" |\n");
        }
        return b.toString();
    }

    /** Writes {@code report.md} into {@code dir}. */
    public static Path write(SimulationResult r, Path dir, List<String> images) {
        return CsvReport.write(dir.resolve("report.md"), render(r, images));
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace('\n', ' ').replace('\r', ' ');
    }
}
