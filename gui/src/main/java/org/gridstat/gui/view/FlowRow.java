package org.gridstat.gui.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.Flow;
import org.gridstat.gui.model.FlowKey;
import org.gridstat.gui.model.FlowStatistics;
import org.gridstat.gui.model.Stamped;
import org.gridstat.gui.model.Subscription;
import org.gridstat.gui.model.Variable;

/**
 * One line of the flow table: a flow in a router joined with its variable (name, publisher's
 * router) and the subscriptions whose paths it serves. What the management API does not give is
 * {@code null}, shown as "—": every statistic before the router's first report, MR from a broker
 * that does not list it.
 *
 * <p>{@code reassigned} is what the router's bandwidth reassignment has moved the flow's assured
 * rate by, as its latest report says: the assured rate in force less the reservation, positive when
 * the flow was granted bandwidth, negative when it lent some to a congested HRT flow, 0 when none
 * is in force; {@code reassignments} how many of the router's decisions moved it since its data
 * path started. {@code heldRateHz} is a congestion hold in force on the flow (0: none).
 * {@code latencyP99Micros} is the 99th percentile of the flow's queueing at its router (this hop
 * only, not end to end; a kernel-shaped link's queueing is the kernel's and not in it) over the
 * router's last report period, µs; 0 when the flow sent nothing in it.
 *
 * <p>{@code asOfMillis} is when its figures were so (its router's report, or its receipt before
 * one); {@code stale}: they may no longer be current (the console is not live, or the router has
 * not reported for {@link ConsoleSnapshot#FLOW_REPORT_STALE_MILLIS}).
 */
public record FlowRow(FlowKey key, String variable, String publisher, String subscribers, String router, String link,
                      String serviceClass, Long assured, Long minimum, Long ceiling, Long demand, String state,
                      Long assuredInForce, Long reassigned, Long reassignments, Double heldRateHz,
                      Long latencyP99Micros, Long deadlineMisses, Long overflowDrops, Long backlog, Long departure,
                      long asOfMillis, boolean stale) {

    /** The rows of every flow in the snapshot, in the order of their keys. */
    public static List<FlowRow> of(ConsoleSnapshot s) {
        Map<Long, Variable> variables = new HashMap<>();
        if (s.variables() != null) {
            s.variables().value().forEach(v -> variables.put(v.id(), v));
        }
        List<Subscription> subscriptions = s.subscriptions() == null ? List.of() : s.subscriptions().value();
        Map<String, Long> idsByName = new HashMap<>();
        variables.values().forEach(v -> idsByName.put(v.name(), v.id()));
        Map<Long, List<Subscription>> byVariable = new HashMap<>();
        for (Subscription sub : subscriptions) {
            Long id = idsByName.get(sub.variable());
            if (id != null) {
                byVariable.computeIfAbsent(id, k -> new ArrayList<>()).add(sub);
            }
        }
        List<FlowRow> rows = new ArrayList<>(s.flows().size());
        for (Stamped<Flow> stamped : s.flows()) {
            Flow f = stamped.value();
            Variable v = variables.get(f.variableId());
            List<String> subs = new ArrayList<>();
            for (Subscription sub : byVariable.getOrDefault(f.variableId(), List.of())) {
                if (sub.uses(f.router(), f.link())) {
                    subs.add(sub.subscriberRouter() + "/" + sub.subscriberLink() + " (#" + sub.id() + ")");
                }
            }
            FlowStatistics st = f.statistics();
            rows.add(new FlowRow(f.key(), v == null ? "#" + Long.toUnsignedString(f.variableId()) : v.name(),
                    v == null ? null : v.router(), subs.isEmpty() ? null : String.join(", ", subs), f.router(), f.link(),
                    f.serviceClass(), f.assuredBytesPerSecond(), f.minimumBytesPerSecond(), f.ceilingBytesPerSecond(),
                    st == null ? null : st.demandBytesPerSecond(), st == null ? null : st.state(),
                    st == null ? null : st.assuredInForceBytesPerSecond(),
                    st == null ? null : st.assuredInForceBytesPerSecond() - f.assuredBytesPerSecond(),
                    st == null ? null : st.reassignments(),
                    st == null ? null : st.heldRateHz(),
                    st == null ? null : st.latencyP99Micros(),
                    st == null ? null : st.deadlineMisses(), st == null ? null : st.overflowDrops(),
                    st == null ? null : st.backlog(), st == null ? null : st.departureBytesPerSecond(),
                    stamped.atMillis(), s.stale(stamped)));
        }
        rows.sort(java.util.Comparator.comparing(FlowRow::key));
        return rows;
    }

    /** Whether every word of {@code filter} occurs in the row's names (variable, routers, link, class, state). */
    public boolean matches(String filter) {
        if (filter == null || filter.isBlank()) {
            return true;
        }
        String text = String.join(" ", variable, publisher == null ? "" : publisher, subscribers == null ? "" : subscribers,
                router, link, router + "->" + link, serviceClass, state == null ? "" : state).toLowerCase(Locale.ROOT);
        for (String word : filter.toLowerCase(Locale.ROOT).trim().split("\\s+")) {
            if (!text.contains(word)) {
                return false;
            }
        }
        return true;
    }
}
