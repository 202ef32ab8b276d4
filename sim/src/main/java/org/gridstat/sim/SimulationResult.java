package org.gridstat.sim;

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
                               Map<String, LinkFigures> links, long events) {
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
    }

    private static <V> Map<String, V> sorted(Map<String, V> m) {
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(m));
    }

    /** The summary of the subscription labelled {@code label}, or {@code null}. */
    public FlowInterval summary(String label) {
        return summaries.stream().filter(s -> s.subscription().equals(label)).findFirst().orElse(null);
    }
}
