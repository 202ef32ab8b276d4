package org.gridstat.sim.whatif;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.gridstat.broker.QosBroker;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.topology.Link;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;

/**
 * The broker's own admission, replayed: a fresh in-process broker is declared the variables the
 * subscriptions use and asked every existing subscription in order, then the candidate. What it
 * refuses of the state is reported and left out; the class reservations of every link are read
 * before and after the candidate. The broker it leaves behind knows each flow it planned, which
 * is how congestion control's decisions in the simulation, which name flows, are traced back to
 * subscriptions: the simulation's broker is asked the same admitted subscriptions in the same
 * order, so its flows get the same ids.
 */
final class AdmissionReplay {
    private static final ServiceClass[] DATA = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};

    /**
     * @param admitted       the existing subscriptions the broker took, in order
     * @param refusal        the broker's reason for refusing the candidate; {@code null}: admitted
     * @param candidatePaths the candidate's paths, routers joined by {@code ->}
     */
    record Outcome(List<StateProblem> problems, List<State.Subscription> admitted, String refusal,
                   List<String> candidatePaths, List<LinkLoad> loads, FlowIndex flows) {
        boolean candidateAdmitted() {
            return refusal == null;
        }
    }

    private final QosBroker broker;
    private final List<StateProblem> problems = new ArrayList<>();
    private final Map<Long, String> labels = new HashMap<>();

    private AdmissionReplay(State state, boolean testDeadlines, FlowRates rates) {
        // Nothing is installed anywhere: the admission and the flows it plans are all that is wanted.
        this.broker = QosBroker.inProcess(state.topology(), new FlowInstaller() {
            @Override
            public void install(String router, ControlMessage.InstallFlow flow) {
            }

            @Override
            public void remove(String router, long flowId, long version) {
            }
        }, testDeadlines, rates);
    }

    static Outcome run(State state, Candidate candidate, boolean testDeadlines, FlowRates rates) {
        AdmissionReplay replay = new AdmissionReplay(state, testDeadlines, rates);
        try {
            return replay.replay(state, candidate);
        } finally {
            replay.broker.close();
        }
    }

    private Outcome replay(State state, Candidate candidate) {
        declareUsed(state, candidate);
        List<State.Subscription> admitted = new ArrayList<>();
        for (State.Subscription s : state.subscriptions()) {
            Object answer = ask(s);
            if (answer instanceof String reason) {
                problems.add(new StateProblem("subscription " + s.label(), reason));
            } else {
                admitted.add(s);
            }
        }
        long[][] before = reserved(state);
        Object answer = ask(candidate.asSubscription());
        long[][] after = reserved(state);
        List<LinkLoad> loads = new ArrayList<>();
        List<Link> links = state.topology().links();
        for (int i = 0; i < links.size(); i++) {
            for (ServiceClass c : DATA) {
                long share = links.get(i).classCapacity(c);
                if (share > 0 || before[i][c.ordinal()] > 0 || after[i][c.ordinal()] > 0) {
                    loads.add(new LinkLoad(links.get(i).name(), c, share, before[i][c.ordinal()], after[i][c.ordinal()]));
                }
            }
        }
        String refusal = answer instanceof String reason ? reason : null;
        List<String> paths = answer instanceof AdmissionResult.Admitted a ? describe(a) : List.of();
        return new Outcome(List.copyOf(problems), List.copyOf(admitted), refusal, paths, List.copyOf(loads),
                FlowIndex.of(state.topology(), broker, labels));
    }

    /**
     * Declares, in the state's order, the variables a subscription or the candidate names: the
     * others change no reservation, and the simulation leaves their publishers out.
     */
    private void declareUsed(State state, Candidate candidate) {
        Set<String> used = new LinkedHashSet<>();
        state.subscriptions().forEach(s -> used.add(s.variable()));
        used.add(candidate.variable());
        for (State.Variable v : state.variables()) {
            if (!used.contains(v.name())) {
                continue;
            }
            try {
                broker.declare(v.name(), v.router(), v.frameBytes(), v.intervalNanos(), v.serviceClass(),
                        v.correlationGroup()).join();
            } catch (CompletionException | IllegalArgumentException e) {
                problems.add(new StateProblem("variable " + v.name(), reasonOf(e)));
            }
        }
    }

    /** The broker's answer: the admission, or its reason for refusing (as a string). */
    private Object ask(State.Subscription s) {
        AdmissionResult r;
        try {
            r = broker.subscribe(s.variable(), s.router(), s.link(), s.qos()).join();
        } catch (CompletionException | IllegalArgumentException e) {
            return reasonOf(e); // what the broker refuses before admission (an unknown router, no such delivery link)
        }
        if (r instanceof AdmissionResult.Rejected rejected) {
            return rejected.reason();
        }
        AdmissionResult.Admitted a = (AdmissionResult.Admitted) r;
        labels.put(a.subscriptionId(), s.label());
        return a;
    }

    private static String reasonOf(RuntimeException e) {
        Throwable why = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return why.getMessage();
    }

    private long[][] reserved(State state) {
        List<Link> links = state.topology().links();
        long[][] out = new long[links.size()][ServiceClass.values().length];
        for (int i = 0; i < links.size(); i++) {
            for (ServiceClass c : DATA) {
                out[i][c.ordinal()] = broker.admission().reserved(links.get(i), c);
            }
        }
        return out;
    }

    private static List<String> describe(AdmissionResult.Admitted a) {
        List<String> out = new ArrayList<>();
        for (List<AdmissionResult.Hop> path : a.paths()) {
            StringBuilder sb = new StringBuilder();
            for (AdmissionResult.Hop h : path) {
                sb.append(sb.isEmpty() ? "" : "->").append(h.router());
            }
            out.add(sb.toString());
        }
        return out;
    }
}
