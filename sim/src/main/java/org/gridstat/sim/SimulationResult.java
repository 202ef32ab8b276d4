package org.gridstat.sim;

import org.gridstat.core.congestion.Decision;

import java.util.List;
import java.util.Map;
import org.gridstat.sim.metrics.FlowInterval;

/**
 * What a run measured: each subscription's rows interval by interval and over the whole run, what
 * the broker answered, the raw sources' datagrams sent and delivered, and what the run cost.
 *
 * @param admissions      each subscription's outcome: "admitted" or the broker's reason for refusing
 * @param rows            every subscription's report intervals, in subscription then time order
 * @param summaries       every admitted subscription over the whole run
 * @param raw             each raw source's datagrams: sent, delivered whole, lost by reason
 * @param links           each link's figures, by name
 * @param events          actions the event loop ran
 */
public record SimulationResult(String scenario, long seed, long durationNanos, Map<String, String> admissions,
                               List<FlowInterval> rows, List<FlowInterval> summaries, Map<String, RawFigures> raw,
                               Map<String, LinkFigures> links, long events, List<CongestionDecision> decisions,
                               List<Notice> notices, Map<String, Long> heldAtSource,
                               List<org.gridstat.broker.adapt.GlobalAdaptation.Outcome> adaptations) {
    /** Decisions a run keeps, the first ones; later ones are not kept (a run without congestion control has none). */
    public static final int MAX_DECISIONS = 100_000;

    /** What a router's congestion control decided, when, on which out-link. */
    public record CongestionDecision(long atNanos, String router, String link, Decision decision) {
    }

    /**
     * A congestion notice a router sent: when, from which router, to which hop (a router's id, or
     * the publisher's variable name), for which variable, the rate advised (0: the hold lifts),
     * when it arrived, and, at a publisher, when it first held a sample back under it (-1: not yet,
     * or not a publisher).
     */
    public record Notice(long sentAt, long arrivedAt, String from, String to, long variableId, int rateHz,
                         long firstHeldAt) {
        public Notice withFirstHeldAt(long at) {
            return new Notice(sentAt, arrivedAt, from, to, variableId, rateHz, at);
        }
    }

    /** A result with congestion decisions and no notices. */
    public SimulationResult(String scenario, long seed, long durationNanos, Map<String, String> admissions,
                            List<FlowInterval> rows, List<FlowInterval> summaries, Map<String, RawFigures> raw,
                            Map<String, LinkFigures> links, long events, List<CongestionDecision> decisions) {
        this(scenario, seed, durationNanos, admissions, rows, summaries, raw, links, events, decisions, List.of(), Map.of(),
                List.of());
    }

    /** A result without congestion decisions. */
    public SimulationResult(String scenario, long seed, long durationNanos, Map<String, String> admissions,
                            List<FlowInterval> rows, List<FlowInterval> summaries, Map<String, RawFigures> raw,
                            Map<String, LinkFigures> links, long events) {
        this(scenario, seed, durationNanos, admissions, rows, summaries, raw, links, events, List.of());
    }

    /** One raw source's datagrams. */
    public record RawFigures(long sent, long sentBytes, long delivered, long deliveredBytes) {
    }

    /** One link's datagrams and packets. */
    public record LinkFigures(long datagramsSent, long datagramsDelivered, long lostToQueue, long lostOnWire,
                              long lostDown, long packetsOnWire, long bytesOnWire) {
    }

    public SimulationResult {
        admissions = sorted(admissions);
        rows = List.copyOf(rows);
        summaries = List.copyOf(summaries);
        raw = sorted(raw);
        links = sorted(links);
        decisions = List.copyOf(decisions);
        notices = List.copyOf(notices);
        heldAtSource = sorted(heldAtSource);
        adaptations = List.copyOf(adaptations);
    }

    private static <V> Map<String, V> sorted(Map<String, V> m) {
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(m));
    }

    /** The summary of the subscription labelled {@code label}, or {@code null}. */
    public FlowInterval summary(String label) {
        return summaries.stream().filter(s -> s.subscription().equals(label)).findFirst().orElse(null);
    }
}
