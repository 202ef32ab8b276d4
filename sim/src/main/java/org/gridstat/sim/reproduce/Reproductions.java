package org.gridstat.sim.reproduce;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.net.LinkModel;

/**
 * Runs the reproductions of the published experiments and prints their figures beside the
 * published ones, as markdown tables ({@code docs/reproductions.md} explains them): the EPFL
 * fragmentation experiment ({@link Fragmentation}), iDSRT ({@link Idsrt}) and the CCC testbed
 * without and with congestion control ({@link CccTestbed}).
 *
 * <p>{@code Reproductions [--quick] [--out file]}: {@code --quick} shortens every run (for a look,
 * not for the figures); {@code --out} also writes the tables to a file.
 */
public final class Reproductions {
    /** How long the runs are. */
    public enum Length {
        /** The figures of docs/reproductions.md. */
        FULL(300, 5, 60),
        /** A look in seconds. */
        QUICK(30, 1, 10);

        final long fragmentationSeconds;
        final long idsrtStepSeconds;
        final long idsrtSettleSeconds;

        Length(long fragmentationSeconds, long idsrtStepSeconds, long idsrtSettleSeconds) {
            this.fragmentationSeconds = fragmentationSeconds;
            this.idsrtStepSeconds = idsrtStepSeconds;
            this.idsrtSettleSeconds = idsrtSettleSeconds;
        }
    }

    private static final LinkModel.Discipline[] DISCIPLINES = {LinkModel.Discipline.FIFO,
            LinkModel.Discipline.DATAGRAM_FIFO, LinkModel.Discipline.SCHEDULER};

    private Reproductions() {
    }

    public static void main(String[] args) throws IOException {
        Length length = Length.FULL;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> length = Length.QUICK;
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("usage: Reproductions [--quick] [--out file]");
            }
        }
        String report = report(length);
        System.out.print(report);
        if (out != null) {
            Files.writeString(out, report, StandardCharsets.UTF_8);
        }
    }

    /** Every table, in the order of docs/reproductions.md. */
    public static String report(Length length) {
        StringBuilder sb = new StringBuilder();
        sb.append(fragmentation(length)).append('\n').append(idsrt(length)).append('\n').append(ccc());
        return sb.toString();
    }

    // --- 1. fragmentation ------------------------------------------------------------------------

    public static String fragmentation(Length length) {
        long s = length.fragmentationSeconds;
        Table main = new Table("overload (IP bytes)", "queue", "offered", "goodput", "bound's goodput (line bytes)",
                "goodput - bound", "wire carrying broken datagrams (IP bytes)", "published");
        for (double over : new double[] {1.1, 1.2}) {
            for (LinkModel.Discipline d : DISCIPLINES) {
                Fragmentation.Figures f = Fragmentation.run(
                        Fragmentation.Variant.shdsl(d, over, Fragmentation.Arrivals.ALIGNED_PMUS, s));
                main.row(pct0(over - 1), name(d), f.sent() + " datagrams, " + ratio(f.offeredLoad()) + " x capacity",
                        pct(f.goodput()), pct(f.boundGoodput()), pp(f.belowBound()), pct(f.wastedWire()),
                        publishedFragmentation(d, over));
            }
        }
        Table arrivals = new Table("line", "arrivals (20 % over)", "tail drop", "datagram-aware", "scheduler", "bound");
        for (LinkModel.Framing framing : new LinkModel.Framing[] {LinkModel.Framing.ATM, LinkModel.Framing.IP}) {
            for (Fragmentation.Arrivals a : Fragmentation.Arrivals.values()) {
                List<String> cells = new ArrayList<>();
                cells.add(framing == LinkModel.Framing.ATM ? "SHDSL (ATM cells)" : "bare IP packets");
                cells.add(a.name().toLowerCase().replace('_', ' '));
                double bound = 0;
                for (LinkModel.Discipline d : DISCIPLINES) {
                    Fragmentation.Figures f = Fragmentation.run(new Fragmentation.Variant(d, 1.2, a, 5, s, 1, framing, 0));
                    cells.add(pct(f.goodput()));
                    bound = f.boundGoodput();
                }
                cells.add(pct(bound));
                arrivals.row(cells.toArray(String[]::new));
            }
        }
        Table spread = new Table("aligned PMUs' reports, one after another", "last first fragment at", "tail drop's goodput");
        for (long micros : new long[] {0, 10, 20, 40, 50, 100, 200, 1000}) {
            Fragmentation.Figures f = Fragmentation.run(Fragmentation.Variant.shdsl(LinkModel.Discipline.FIFO, 1.2,
                    Fragmentation.Arrivals.ALIGNED_PMUS, s).spread(micros * 1000));
            spread.row(micros + " µs apart", 4 * micros + " µs", pct(f.goodput()));
        }
        Table sweep = new Table("overload", "bound (SHDSL)", "tail drop, SHDSL, aligned PMUs", "tail drop, SHDSL, drifting PMUs",
                "datagram-aware, SHDSL, aligned PMUs", "bound (bare IP)", "tail drop, bare IP, drifting PMUs",
                "tail drop, bare IP, Poisson", "tail drop, bare IP, one PMU");
        for (double over : new double[] {1.05, 1.1, 1.2, 1.3, 1.4, 1.5, 1.7, 2.0}) {
            long sweepSeconds = Math.min(s, 120);
            Fragmentation.Figures aligned = Fragmentation.run(Fragmentation.Variant.shdsl(LinkModel.Discipline.FIFO, over,
                    Fragmentation.Arrivals.ALIGNED_PMUS, sweepSeconds));
            Fragmentation.Figures shdslDrifting = Fragmentation.run(Fragmentation.Variant.shdsl(LinkModel.Discipline.FIFO,
                    over, Fragmentation.Arrivals.DRIFTING_PMUS, sweepSeconds));
            Fragmentation.Figures aware = Fragmentation.run(Fragmentation.Variant.shdsl(LinkModel.Discipline.DATAGRAM_FIFO,
                    over, Fragmentation.Arrivals.ALIGNED_PMUS, sweepSeconds));
            Fragmentation.Figures drifting = Fragmentation.run(Fragmentation.Variant.of(LinkModel.Discipline.FIFO, over,
                    Fragmentation.Arrivals.DRIFTING_PMUS, sweepSeconds));
            Fragmentation.Figures poisson = Fragmentation.run(Fragmentation.Variant.of(LinkModel.Discipline.FIFO, over,
                    Fragmentation.Arrivals.POISSON, sweepSeconds));
            Fragmentation.Figures one = Fragmentation.run(Fragmentation.Variant.of(LinkModel.Discipline.FIFO, over,
                    Fragmentation.Arrivals.ONE_PMU, sweepSeconds));
            sweep.row(pct0(over - 1), pct(aligned.boundGoodput()), pct(aligned.goodput()), pct(shdslDrifting.goodput()),
                    pct(aware.goodput()), pct(drifting.boundGoodput()), pct(drifting.goodput()), pct(poisson.goodput()),
                    pct(one.goodput()));
        }
        return "### Fragmentation under tail drop (" + s + " s of sending per run, 5 aligned PMUs on an SHDSL line)\n\n"
                + main + "\nGoodput at 20 % over capacity by line and arrival process:\n\n" + arrivals
                + "\nTail drop at 20 % over on the SHDSL line, the aligned PMUs' frames reaching the modem one after"
                + " another (120 µs between a frame's two fragments on the LAN):\n\n" + spread
                + "\nGoodput as the overload grows (" + Math.min(s, 120) + " s per run):\n\n" + sweep;
    }

    private static String publishedFragmentation(LinkModel.Discipline d, double over) {
        boolean twenty = over > 1.15;
        return switch (d) {
            case FIFO -> twenty ? "measured 10-63 % (37-90 % of frames lost); simulated ~3 %"
                    : "measured down to 43 % (up to 57 % of frames lost)";
            case DATAGRAM_FIFO -> twenty ? "simulated ~75 %" : "-";
            case SCHEDULER -> "- (ours)";
        };
    }

    private static String name(LinkModel.Discipline d) {
        return switch (d) {
            case FIFO -> "tail drop (FIFO)";
            case DATAGRAM_FIFO -> "datagram-aware (DATAGRAM_FIFO)";
            case SCHEDULER -> "scheduler (SCHEDULER)";
        };
    }

    // --- 2. iDSRT --------------------------------------------------------------------------------

    public static String idsrt(Length length) {
        long step = length.idsrtStepSeconds;
        long settle = length.idsrtSettleSeconds;
        Idsrt.Figures fifo = Idsrt.run(Idsrt.Variant.bestEffort(Idsrt.BEST_EFFORT_LOAD, step, settle));
        Idsrt.Figures edf = Idsrt.run(Idsrt.Variant.edf(Idsrt.BEST_EFFORT_LOAD, step, settle));
        Table head = new Table("", "streams admitted", "mean delay", "max delay", "deadline misses",
                "worst stream's misses", "best effort delivered");
        head.row("published iDSRT", "13", "~15 ms", "~35 ms", "~15 %", "-", "-");
        head.row("published best effort", "-", "90-560 ms (range)", "", "-", "-", "-");
        head.row("ours: EDF + admission (SCHEDULER, FULL)", String.valueOf(edf.admitted()),
                ms(edf.settled().meanLatencyMs()), ms(edf.settled().maxLatencyMs()), pct(edf.settled().missRatio()),
                pct(edf.worstStreamMissRatio()), pct(edf.bestEffortGoodput()));
        head.row("ours: best effort (FIFO, BANDWIDTH_ONLY)", String.valueOf(fifo.admitted()),
                ms(fifo.settled().meanLatencyMs()), ms(fifo.settled().maxLatencyMs()), pct(fifo.settled().missRatio()),
                pct(fifo.worstStreamMissRatio()), pct(fifo.bestEffortGoodput()));
        Table steps = new Table("streams", "EDF mean", "EDF max", "EDF late or dropped", "FIFO mean", "FIFO max",
                "FIFO misses");
        // The two runs may take a different number of steps (admission refuses at different points): a
        // run without a row for a step shows dashes there.
        for (int i = 0; i < Math.max(edf.steps().size(), fifo.steps().size()); i++) {
            Idsrt.Stretch e = i < edf.steps().size() ? edf.steps().get(i) : null;
            Idsrt.Stretch f = i < fifo.steps().size() ? fifo.steps().get(i) : null;
            int streams = e != null ? e.streams() : f.streams();
            steps.row(streams + (e != null && i >= edf.admitted() ? " (" + (i + 1) + "th refused)" : ""),
                    e == null ? "-" : ms(e.meanLatencyMs()), e == null ? "-" : ms(e.maxLatencyMs()),
                    e == null ? "-" : (e.late() + e.routerDrops()) + " of " + e.offered(),
                    f == null ? "-" : ms(f.meanLatencyMs()), f == null ? "-" : ms(f.maxLatencyMs()),
                    f == null ? "-" : pct(f.missRatio()));
        }
        return "### iDSRT: deadline partitioning and EDF (a stream added every " + step + " s, then " + settle
                + " s with all admitted)\n\nThe first refusal: " + edf.refusal() + "\n\n" + head
                + "\nDelays and misses as streams are added (one row per " + step + " s; a row counts the samples"
                + " published in it as offered and those arriving in it as delivered, so FIFO misses are exact over"
                + " many rows only; EDF's late arrivals and router drops are counted event by event):\n\n" + steps;
    }

    // --- 3. CCC testbed --------------------------------------------------------------------------

    /** The published HRT misses with CCC per interval (thesis ch. 7, DESIGN.md section 8). */
    static final String[][] PUBLISHED_WITH_CCC = {{"0", "4", "0", "1.8", "0"}, {"0", "0", "3", "1", "0"}};

    public static String ccc() {
        CccTestbed.Figures f = CccTestbed.run();
        List<String> header = new ArrayList<>(List.of("stream", "figure"));
        for (int i = 0; i + 1 < CccTestbed.INTERVALS.length; i++) {
            header.add(CccTestbed.INTERVALS[i] + "-" + CccTestbed.INTERVALS[i + 1] + " s");
        }
        Table t = new Table(header.toArray(String[]::new));
        for (String stream : CccTestbed.STREAMS) {
            List<String> miss = new ArrayList<>(List.of(stream, "misses (not on time / offered)"));
            List<String> detail = new ArrayList<>(List.of("", "router deadline drops / overflow drops / offered"));
            List<String> delay = new ArrayList<>(List.of("", "mean / max delay"));
            for (int i = 0; i + 1 < CccTestbed.INTERVALS.length; i++) {
                CccTestbed.Row r = f.row(stream, CccTestbed.INTERVALS[i]);
                miss.add(pct(r.missRatio()));
                detail.add(r.deadlineDrops() + " / " + r.overflowDrops() + " / " + r.offered());
                delay.add(String.format("%.1f / %.1f ms", r.meanLatencyMs(), r.maxLatencyMs()));
            }
            t.row(miss.toArray(String[]::new));
            t.row(detail.toArray(String[]::new));
            t.row(delay.toArray(String[]::new));
            if (stream.endsWith("HRT")) {
                List<String> published = new ArrayList<>(List.of("", "published, with CCC"));
                for (String p : PUBLISHED_WITH_CCC[stream.startsWith("A") ? 0 : 1]) {
                    published.add(p + " %");
                }
                t.row(published.toArray(String[]::new));
            }
        }
        Table sweep = new Table("bottleneck", "A-HRT 60-80 s", "B-HRT 60-80 s", "A-HRT 80-90 s", "B-HRT 80-90 s",
                "A-HRT 90-100 s", "B-HRT 90-100 s", "LRT, BE (all)");
        // Below 40,320 B/s the LRT share (30 %) no longer holds both LRT flows and admission refuses one.
        for (long c : new long[] {CccTestbed.BOTTLENECK, 43_200, 46_080, 57_600, 100_000, 1_250_000}) {
            CccTestbed.Figures g = c == CccTestbed.BOTTLENECK ? f : CccTestbed.run(c, 100);
            g.admissions().forEach((stream, outcome) -> {
                if (!outcome.equals("admitted")) {
                    throw new IllegalStateException("at " + c + " B/s " + stream + " was " + outcome);
                }
            });
            double others = 0;
            for (CccTestbed.Row r : g.rows()) {
                if (!r.stream().endsWith("HRT")) {
                    others = Math.max(others, r.missRatio());
                }
            }
            sweep.row(String.format("%,d B/s%s", c, c == CccTestbed.BOTTLENECK ? " (derived)" : ""),
                    pct(g.row("A-HRT", 60).missRatio()), pct(g.row("B-HRT", 60).missRatio()),
                    pct(g.row("A-HRT", 80).missRatio()), pct(g.row("B-HRT", 80).missRatio()),
                    pct(g.row("A-HRT", 90).missRatio()), pct(g.row("B-HRT", 90).missRatio()), "at most " + pct(others));
        }
        return "### CCC testbed without congestion control (bottleneck " + String.format("%,d", f.bottleneck())
                + " B/s, 100 s)\n\nPublished without CCC: HRT misses \"up to 50 %\" (no per-interval figures).\n\n"
                + t + "\nHRT misses by bottleneck capacity:\n\n" + sweep + "\n" + cccWithControl();
    }

    /**
     * The testbed at the thesis's rates: congestion control off; local reassignment only (100 ms
     * period); the whole framework, reassignment and notices to the publishers, at 100 ms and at 1 s.
     */
    public static String cccWithControl() {
        CccTestbed.Figures off = CccTestbed.run(CccTestbed.BOTTLENECK, 100, CccTestbed.congestion(false, CccTestbed.PERIOD));
        CccTestbed.Figures local = CccTestbed.run(CccTestbed.BOTTLENECK, 100,
                CccTestbed.congestion(true, false, CccTestbed.PERIOD));
        CccTestbed.Figures tenth = CccTestbed.run(CccTestbed.BOTTLENECK, 100, CccTestbed.congestion(true, CccTestbed.PERIOD));
        CccTestbed.Figures second = CccTestbed.run(CccTestbed.BOTTLENECK, 100, CccTestbed.congestion(true, 1_000_000_000L));
        Table t = new Table("stream", "published, with CCC", "off", "reassignment only, 100 ms", "with notices, 100 ms",
                "with notices, 1 s");
        for (String stream : CccTestbed.STREAMS) {
            String published = !stream.endsWith("HRT") ? "not published"
                    : String.join(" / ", PUBLISHED_WITH_CCC[stream.startsWith("A") ? 0 : 1]) + " %";
            t.row(stream, published, perInterval(off, stream), perInterval(local, stream), perInterval(tenth, stream),
                    perInterval(second, stream));
        }
        Table sent = new Table("stream", "reassignment only, 100 ms", "with notices, 100 ms", "held at the source");
        for (String stream : CccTestbed.STREAMS) {
            if (!stream.endsWith("HRT")) {
                sent.row(stream, offeredPerInterval(local, stream), offeredPerInterval(tenth, stream),
                        String.valueOf(tenth.heldAtSource().getOrDefault(stream, 0L)));
            }
        }
        Table chain = new Table("notice", "sent (s)", "arrived (s)", "rate", "first sample held (s)");
        for (SimulationResult.Notice n : tenth.notices()) {
            chain.row(n.from() + " -> " + n.to(), String.format("%.3f", n.sentAt() / 1e9), String.format("%.3f", n.arrivedAt() / 1e9),
                    n.rateHz() == 0 ? "lifted" : n.rateHz() + " Hz",
                    n.firstHeldAt() < 0 ? "" : String.format("%.3f", n.firstHeldAt() / 1e9));
        }
        return "### CCC testbed with congestion control (the thesis's rates; misses per interval, "
                + "0-40 / 40-60 / 60-80 / 80-90 / 90-100 s)\n\n" + t
                + "\nSamples the LRT and best-effort publishers sent per interval (0-40 / 40-60 / 60-80 / 80-90 / 90-100 s):\n\n"
                + sent + "\nThe notices of the run with notices at 100 ms:\n\n" + chain;
    }

    private static String offeredPerInterval(CccTestbed.Figures f, String stream) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i + 1 < CccTestbed.INTERVALS.length; i++) {
            cells.add(String.valueOf(f.row(stream, CccTestbed.INTERVALS[i]).offered()));
        }
        return String.join(" / ", cells);
    }

    private static String perInterval(CccTestbed.Figures f, String stream) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i + 1 < CccTestbed.INTERVALS.length; i++) {
            cells.add(String.format("%.1f", f.row(stream, CccTestbed.INTERVALS[i]).missRatio() * 100));
        }
        return String.join(" / ", cells) + " %";
    }

    // --- formatting ------------------------------------------------------------------------------

    static String pct(double ratio) {
        return String.format("%.1f %%", ratio * 100);
    }

    static String pct0(double ratio) {
        return String.format("%.0f %%", ratio * 100);
    }

    static String pp(double ratio) {
        return String.format("%+.1f pp", ratio * 100);
    }

    static String ratio(double r) {
        return String.format("%.3f", r);
    }

    static String ms(double ms) {
        return ms == 0 ? "-" : String.format("%.1f ms", ms);
    }

    /** A markdown table. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();

        Table(String... header) {
            rows.add(header);
        }

        void row(String... cells) {
            rows.add(cells);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < rows.size(); i++) {
                sb.append("| ").append(String.join(" | ", rows.get(i))).append(" |\n");
                if (i == 0) {
                    sb.append('|').append("---|".repeat(rows.get(0).length)).append('\n');
                }
            }
            return sb.toString();
        }
    }
}
