package org.gridstat.sim.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.metrics.FlowInterval;

/**
 * A run as CSV: {@code flows.csv}, one row per subscription per report interval; {@code links.csv},
 * one row per link; {@code raw.csv}, one row per raw source. Each row begins with the scenario and
 * seed, so files of several runs concatenate. Fixed decimals and {@code \n} line ends: the same run
 * gives the same bytes.
 */
public final class CsvReport {
    public static final String FLOWS_HEADER = "scenario,seed,subscription,from_s,to_s,offered,delivered,late,overflow_drops,"
            + "deadline_misses,copies_lost,latency_p50_ms,latency_p99_ms,latency_max_ms";
    public static final String LINKS_HEADER = "scenario,seed,link,datagrams_sent,datagrams_delivered,lost_queue,lost_wire,"
            + "lost_down,packets_on_wire,bytes_on_wire,wire_bytes_per_s";
    public static final String RAW_HEADER = "scenario,seed,source,sent,sent_bytes,delivered,delivered_bytes,delivered_pct";

    private CsvReport() {
    }

    /** Each subscription's report intervals, in subscription then time order. */
    public static String flows(SimulationResult r) {
        StringBuilder b = new StringBuilder(FLOWS_HEADER).append('\n');
        for (FlowInterval f : r.rows()) {
            start(b, r).append(field(f.subscription())).append(',')
                    .append(Units.seconds(f.fromNanos())).append(',').append(Units.seconds(f.toNanos())).append(',')
                    .append(f.offered()).append(',').append(f.delivered()).append(',').append(f.late()).append(',')
                    .append(f.overflowDrops()).append(',').append(f.deadlineMisses()).append(',')
                    .append(f.copiesLost()).append(',').append(Units.millis(f.latencyP50Nanos())).append(',')
                    .append(Units.millis(f.latencyP99Nanos()))
                    .append(',').append(Units.millis(f.latencyMaxNanos())).append('\n');
        }
        return b.toString();
    }

    /** Each link's datagrams over the whole run, by name. */
    public static String links(SimulationResult r) {
        StringBuilder b = new StringBuilder(LINKS_HEADER).append('\n');
        for (Map.Entry<String, SimulationResult.LinkFigures> e : r.links().entrySet()) {
            SimulationResult.LinkFigures l = e.getValue();
            start(b, r).append(field(e.getKey())).append(',').append(l.datagramsSent()).append(',')
                    .append(l.datagramsDelivered()).append(',').append(l.lostToQueue()).append(',').append(l.lostOnWire())
                    .append(',').append(l.lostDown()).append(',').append(l.packetsOnWire()).append(',')
                    .append(l.bytesOnWire()).append(',').append(Units.perSecond(l.bytesOnWire(), r.durationNanos()))
                    .append('\n');
        }
        return b.toString();
    }

    /** Each raw source's datagrams over the whole run, by label. */
    public static String raw(SimulationResult r) {
        StringBuilder b = new StringBuilder(RAW_HEADER).append('\n');
        for (Map.Entry<String, SimulationResult.RawFigures> e : r.raw().entrySet()) {
            SimulationResult.RawFigures f = e.getValue();
            start(b, r).append(field(e.getKey())).append(',').append(f.sent()).append(',').append(f.sentBytes())
                    .append(',').append(f.delivered()).append(',').append(f.deliveredBytes()).append(',')
                    .append(Units.percent(f.delivered(), f.sent())).append('\n');
        }
        return b.toString();
    }

    /** Writes {@code flows.csv}, {@code links.csv} and {@code raw.csv} into {@code dir} (made if missing). */
    public static List<Path> write(SimulationResult r, Path dir) {
        return List.of(write(dir.resolve("flows.csv"), flows(r)), write(dir.resolve("links.csv"), links(r)),
                write(dir.resolve("raw.csv"), raw(r)));
    }

    static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static StringBuilder start(StringBuilder b, SimulationResult r) {
        return b.append(field(r.scenario())).append(',').append(r.seed()).append(',');
    }

    /** A field quoted as RFC 4180 asks when it holds a comma, quote or line end. */
    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
