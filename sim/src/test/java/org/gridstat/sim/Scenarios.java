package org.gridstat.sim;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;

/** Small scenarios built in code, for the simulator's own tests. */
final class Scenarios {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    private Scenarios() {
    }

    /** r1 -> r2 at {@code bandwidth} B/s and {@code delay}, a subscriber on r2's delivery link "cc". */
    static Topology line(long bandwidth, long delayNanos) {
        return Topology.builder()
                .router("r1", 1_000_000, 1 * MS, null)
                .router("r2", 1_000_000, 1 * MS, null)
                .link("r1", "r2", bandwidth, delayNanos, Topology.Builder.defaultShares())
                .build();
    }

    static Scenario.Variable variable(String name, String router, int bytes, long interval, ServiceClass c, long bound) {
        return new Scenario.Variable(name, router, bytes, interval, c, "", MS, 0, bound, 0); // after the flows are in
    }

    static Scenario.Subscription subscription(String label, String variable, String router, long interval, long bound,
                                              ServiceClass c) {
        return new Scenario.Subscription(label, variable, router, "cc", QosSpec.builder()
                .interval(Duration.ofNanos(interval)).latencyBound(Duration.ofNanos(bound)).serviceClass(c).build(), 0);
    }

    static Scenario scenario(Topology t, long duration, Map<String, LinkModel> links, List<Scenario.Variable> variables,
                             List<Scenario.Subscription> subscriptions, List<Scenario.RawSource> raw,
                             List<Scenario.Change> timeline) {
        return new Scenario("test", t, duration, S, 1, Scenario.Admission.FULL, links, variables, subscriptions, raw,
                timeline);
    }
}
