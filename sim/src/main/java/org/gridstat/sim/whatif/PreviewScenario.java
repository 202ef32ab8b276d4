package org.gridstat.sim.whatif;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.scenario.Scenario;

/**
 * The simulation of a previewed network: the state's topology with its links as the broker knows
 * them (no faults: the preview asks what the load does, not what a failure does), a publisher
 * for every variable some subscription takes, every subscription asked at time 0 in the state's
 * order, and the surge from time 0. The run goes {@link #TAIL} beyond the duration, unreported,
 * so the samples of its last moments can still arrive in time.
 */
final class PreviewScenario {
    static final long SECOND = 1_000_000_000L;
    /** Simulated beyond the duration so the last samples can meet their deadlines; rows end at the duration. */
    static final long TAIL = SECOND;
    /** Publishers start once the flows are in, as the simulator's own scenarios do. */
    private static final long START = 1_000_000L;

    private PreviewScenario() {
    }

    /**
     * @param subscriptions what the broker is asked, in order
     * @param deadlines     the subscriptions whose bounds decide each variable's deadline (the same
     *                      for the runs compared, so only the load differs between them)
     */
    static Scenario of(State state, List<State.Subscription> subscriptions, List<State.Subscription> deadlines, Surge surge,
                       long durationNanos, long seed, Scenario.Admission admission, Scenario.Congestion congestion) {
        Set<String> used = new HashSet<>();
        subscriptions.forEach(s -> used.add(s.variable()));
        Map<String, Long> deadline = deadlineByVariable(deadlines);
        List<Scenario.Variable> variables = new ArrayList<>();
        for (State.Variable v : state.variables()) {
            if (used.contains(v.name())) {
                variables.add(new Scenario.Variable(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                        v.correlationGroup(), START, 0, deadline.getOrDefault(v.name(), 0L), 0));
            }
        }
        List<Scenario.Subscription> asked = subscriptions.stream()
                .map(s -> new Scenario.Subscription(s.label(), s.variable(), s.router(), s.link(), s.qos(), 0)).toList();
        List<Scenario.Change> timeline = surge != null && used.contains(surge.variable())
                ? List.of(new Scenario.RateChange(0, surge.variable(), surge.intervalNanos())) : List.of();
        return new Scenario("what-if", state.topology(), durationNanos + TAIL, SECOND, seed, admission, Map.of(), variables,
                asked, List.of(), timeline, congestion);
    }

    /**
     * The deadline a variable's publisher stamps: its tightest HRT or LRT subscriber's bound, as
     * the publisher of a stream with deadline-driven subscribers is configured; none for a
     * variable only best effort takes, whose FIFO does not order by deadline.
     */
    static Map<String, Long> deadlineByVariable(List<State.Subscription> subscriptions) {
        Map<String, Long> out = new HashMap<>();
        for (State.Subscription s : subscriptions) {
            if (s.qos().serviceClass() == ServiceClass.HRT || s.qos().serviceClass() == ServiceClass.LRT) {
                out.merge(s.variable(), s.qos().latencyBoundNanos(), Math::min);
            }
        }
        return out;
    }
}
