package org.gridstat.sim;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.sim.scenario.Scenario;

/**
 * How many flows each simulated router must have room for on one out-link: a router sets aside
 * room per allowed flow on every link, so a scenario of a thousand routers cannot give each the
 * room of the busiest. Found by admitting every subscription of the scenario, in the order asked,
 * on a broker of its own (none torn down: an upper bound), and counting each router's flows per
 * link; plus the raw sources, and a margin.
 */
final class FlowSizing {
    /** Room beyond the count: flows a resync or a class change may hold for a while beside the others. */
    static final int MARGIN = 8;
    static final int MAX = 65_536;

    private FlowSizing() {
    }

    static Map<String, Integer> flowsPerLink(Scenario scenario) {
        Map<String, Set<Long>> flows = new HashMap<>(); // "router link" -> flow ids
        FlowInstaller counter = new FlowInstaller() {
            @Override
            public void install(String router, ControlMessage.InstallFlow flow) {
                flows.computeIfAbsent(router + " " + flow.link(), k -> new HashSet<>()).add(flow.spec().flowId());
            }

            @Override
            public void remove(String router, long flowId, long version) {
            }
        };
        try (QosBroker broker = QosBroker.inProcess(scenario.topology(), counter,
                scenario.admission() == Scenario.Admission.FULL)) {
            for (Scenario.Variable v : scenario.variables()) {
                try {
                    broker.declare(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                            v.correlationGroup()).join();
                } catch (RuntimeException e) {
                    // the run itself reports it
                }
            }
            scenario.subscriptions().stream().sorted(Comparator.comparingLong(Scenario.Subscription::atNanos))
                    .forEach(s -> {
                        try {
                            broker.subscribe(s.variable(), s.router(), s.link(), s.qos()).join();
                        } catch (RuntimeException e) {
                            // refused: no flows
                        }
                    });
        }
        Map<String, Integer> perRouter = new HashMap<>();
        for (RouterNode r : scenario.topology().routers()) {
            perRouter.put(r.id(), MARGIN);
        }
        flows.forEach((key, ids) -> perRouter.merge(key.substring(0, key.indexOf(' ')), ids.size() + MARGIN, Math::max));
        for (Scenario.RawSource rs : scenario.rawSources()) {
            perRouter.computeIfPresent(rs.router(), (k, n) -> n + 1);
        }
        perRouter.replaceAll((k, n) -> Math.min(MAX, n));
        return perRouter;
    }
}
