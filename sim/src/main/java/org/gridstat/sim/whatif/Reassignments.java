package org.gridstat.sim.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gridstat.core.congestion.Decision;
import org.gridstat.sim.SimulationResult;

/**
 * Congestion control's decisions in a run, told per subscription: whose flows lent bandwidth to
 * which congested HRT flow and how much, and which HRT flows it could not cover (alarms).
 */
final class Reassignments {
    private final Map<String, List<Lending>> lentByLabel;
    private final List<Shortfall> shortfalls;

    private Reassignments(Map<String, List<Lending>> lentByLabel, List<Shortfall> shortfalls) {
        this.lentByLabel = lentByLabel;
        this.shortfalls = shortfalls;
    }

    /** Reads the decisions made before {@code endNanos}; those about flows the index does not know are left out. */
    static Reassignments read(List<SimulationResult.CongestionDecision> decisions, FlowIndex index, long endNanos) {
        Map<FlowIndex.Flow, long[]> lent = new LinkedHashMap<>(); // assured, lowest, first at, times, first for-flow
        Map<FlowIndex.Flow, long[]> unmet = new LinkedHashMap<>(); // needed, short, first at
        for (SimulationResult.CongestionDecision cd : decisions) {
            Decision d = cd.decision();
            FlowIndex.Flow f = index.flow(cd.router(), d.flowId());
            if (cd.atNanos() >= endNanos || f == null || !f.outLink().equals(cd.link())) {
                continue;
            }
            if (d.kind() == Decision.Kind.LENT) {
                long[] a = lent.computeIfAbsent(f, k -> new long[] {0, Long.MAX_VALUE, cd.atNanos(), 0, d.forFlowId()});
                a[0] = Math.max(a[0], d.fromRate());
                a[1] = Math.min(a[1], d.toRate());
                a[3]++;
            } else if (d.kind() == Decision.Kind.UNMET) {
                long[] a = unmet.computeIfAbsent(f, k -> new long[] {0, 0, cd.atNanos()});
                a[0] = Math.max(a[0], d.toRate());
                a[1] = Math.max(a[1], d.shortfall());
            }
        }
        Map<String, List<Lending>> byLabel = new TreeMap<>();
        lent.forEach((f, a) -> {
            FlowIndex.Flow to = index.flow(f.router(), a[4]);
            Lending l = new Lending(f.link(), to == null ? "flow " + a[4] : to.variable(), a[0], a[1], a[2], (int) a[3]);
            for (String label : f.labels()) {
                byLabel.computeIfAbsent(label, k -> new ArrayList<>()).add(l);
            }
        });
        byLabel.values().forEach(ls -> ls.sort(Comparator.comparingLong(Lending::firstAtNanos).thenComparing(Lending::link)));
        List<Shortfall> shortfalls = new ArrayList<>();
        unmet.forEach((f, a) -> shortfalls.add(new Shortfall(f.link(), f.variable(), a[0], a[1], a[2])));
        shortfalls.sort(Comparator.comparingLong(Shortfall::firstAtNanos).thenComparing(Shortfall::link)
                .thenComparing(Shortfall::variable));
        return new Reassignments(byLabel, List.copyOf(shortfalls));
    }

    /** Where the subscription's flows lent, in the order they first did. */
    List<Lending> lentBy(String label) {
        return lentByLabel.getOrDefault(label, List.of());
    }

    List<Shortfall> shortfalls() {
        return shortfalls;
    }
}
