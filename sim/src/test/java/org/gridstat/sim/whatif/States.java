package org.gridstat.sim.whatif;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.reproduce.CccTestbed;
import org.gridstat.sim.scenario.Scenario;

/** States to preview, built in code. */
final class States {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    private States() {
    }

    /** The CCC thesis testbed as a broker would hold it: its six 20 Hz streams admitted at the control center. */
    static State cccTestbed(State.Variable... more) {
        Scenario s = CccTestbed.scenario();
        List<State.Variable> variables = new ArrayList<>();
        for (Scenario.Variable v : s.variables()) {
            variables.add(new State.Variable(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                    v.correlationGroup()));
        }
        variables.addAll(List.of(more));
        List<State.Subscription> subscriptions = s.subscriptions().stream()
                .map(x -> new State.Subscription(x.label(), x.variable(), x.router(), x.link(), x.qos())).toList();
        return new State(s.topology(), variables, subscriptions);
    }

    /**
     * r1 <-> r2 <-> r3, each link at {@code bandwidth} B/s and 1 ms, HRT's share {@code hrtPercent},
     * LRT 30 %, BE 20 %.
     */
    static Topology line(long bandwidth, int hrtPercent) {
        Map<ServiceClass, Integer> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, hrtPercent);
        shares.put(ServiceClass.LRT, 30);
        shares.put(ServiceClass.BE, 20);
        return Topology.builder()
                .router("r1", 1_000_000, MS, "")
                .router("r2", 1_000_000, MS, "")
                .router("r3", 1_000_000, MS, "")
                .between("r1", "r2", bandwidth, MS, shares)
                .between("r2", "r3", bandwidth, MS, shares)
                .build();
    }

    static State.Variable variable(String name, String router, int bytes, int hz, ServiceClass c, String group) {
        return new State.Variable(name, router, bytes, Math.round(1e9 / hz), c, group);
    }

    static QosSpec qos(int hz, long boundMs, ServiceClass c) {
        return QosSpec.builder().rateHz(hz).latencyBound(Duration.ofMillis(boundMs)).serviceClass(c)
                .build();
    }
}
