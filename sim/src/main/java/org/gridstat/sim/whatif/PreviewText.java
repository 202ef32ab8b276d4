package org.gridstat.sim.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A preview told in lines an operator reads before deciding: the verdict first, then what of the
 * current state had to be left out, then the links that tighten, then the flows in trouble (worst
 * first), then the alarms. Numbers are formatted the same whatever the locale, so the lines of
 * the same preview are the same everywhere.
 */
final class PreviewText {
    private PreviewText() {
    }

    static List<String> lines(Preview p) {
        List<String> out = new ArrayList<>();
        if (p.admitted()) {
            out.add("admitted");
            if (!p.candidatePaths().isEmpty()) {
                out.add((p.candidatePaths().size() == 1 ? "path " : "paths ") + String.join("; ", p.candidatePaths()));
            }
        } else {
            out.add("refused: " + p.refusal());
        }
        for (StateProblem s : p.stateProblems()) {
            out.add("the current state does not admit as it is: " + s.what() + " is refused: " + s.reason()
                    + "; previewed without it");
        }
        for (LinkLoad l : p.tightened()) {
            out.add(f("link %s %s reservation %s → %s of its share (%+,d B/s, %,d B/s left)", l.link(), l.serviceClass(),
                    percents(l.beforePercent(), l.afterPercent())[0], percents(l.beforePercent(), l.afterPercent())[1],
                    l.change(), l.leftAfter()));
        }
        if (p.admitted() && p.tightened().isEmpty() && !p.candidatePaths().isEmpty()) {
            out.add("no link's reservation changes: the candidate rides flows already reserved");
        }
        String context = p.surge() != null ? "under the surge" : p.admitted() ? "with the candidate" : "as it is";
        List<FlowOutlook> troubled = new ArrayList<>(p.troubled());
        troubled.sort(Comparator.comparingDouble((FlowOutlook o) -> -o.with().missRatio())
                .thenComparingDouble(o -> -o.with().overflowRatio()).thenComparing(FlowOutlook::label));
        for (FlowOutlook o : troubled) {
            String flow = "flow " + o.flowName() + " [" + o.label() + "]";
            FlowFigures w = o.with();
            if (w.missed() > 0) {
                out.add(f("%s would miss %.1f %% of deadlines %s (%,d of %,d samples%s)", flow, 100 * w.missRatio(), context,
                        w.missed(), w.judged(), o.without() == null ? ""
                                : f("; %.1f %% without the candidate", 100 * o.without().missRatio())));
            }
            if (w.overflowDrops() > 0) {
                out.add(f("%s would overflow %.1f %% of its samples %s (%,d of %,d dropped for a full queue%s)", flow,
                        100 * w.overflowRatio(), context, w.overflowDrops(), w.offered(), o.without() == null ? ""
                                : f("; %.1f %% without the candidate", 100 * o.without().overflowRatio())));
            }
            if (o.heldAtSource() > 0) {
                out.add(f("%s would have its publisher held back by congestion notices (%,d samples not sent)", flow,
                        o.heldAtSource()));
            }
            for (Lending l : o.lent()) {
                out.add(f("%s would lend bandwidth on %s to %s: down to %,d of %,d B/s from %.1f s", flow, l.link(),
                        l.toVariable(), l.lowestBytes(), l.assuredBytes(), l.firstAtNanos() / 1e9));
            }
        }
        for (Shortfall s : p.shortfalls()) {
            out.add(f("link %s cannot cover %s: it needs %,d B/s, %,d more than its victims can lend (an alarm to the"
                    + " broker, from %.1f s)", s.link(), s.variable(), s.neededBytes(), s.shortBytes(), s.firstAtNanos() / 1e9));
        }
        if (troubled.isEmpty()) {
            out.add(f("no flow would miss a deadline, overflow, lend bandwidth or be held at its source %s", context));
        }
        out.addAll(p.notes());
        out.add(f("simulated %d s %s congestion control%s, seed %d", p.simulatedNanos() / 1_000_000_000L,
                p.congestionControl() ? "with" : "without",
                p.surge() == null ? "" : f(", %s at %s Hz", p.surge().variable(), hz(p.surge().rateHz())), p.seed()));
        return out;
    }

    /**
     * Two shares in whole percent, or to a tenth where whole percent would hide the change: an
     * operator reading "2 % → 2 %" would think nothing changed.
     */
    private static String[] percents(double before, double after) {
        boolean whole = Math.round(before) != Math.round(after) || before == after;
        String format = whole ? "%.0f %%" : "%.1f %%";
        return new String[] {f(format, before), f(format, after)};
    }

    private static String hz(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : f("%.3f", rate);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
