package org.gridstat.sim.whatif;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.scenario.Scenario;

/**
 * Predicts the effect of admitting a subscription before it is made: the console's "what if".
 *
 * <p>First the broker's own admission, run in process on a fresh broker fed the current state in
 * order ({@link AdmissionReplay}), answers whether the candidate is admitted and what each link's
 * class reservations become. Then the simulator runs the resulting network for the duration with
 * congestion control on and the surge applied; if the candidate is admitted, it runs the network
 * without it too (beside the first, on a thread of its own, where cores and heap allow), so each
 * flow's figures can be compared and the candidate's share of the damage told from the surge's. Deterministic for a seed. A
 * preview takes up to seconds of CPU ({@link PreviewLimits}): call it off the console's UI thread.
 */
public final class AdmissionPreview {
    private static final long SECOND = 1_000_000_000L;

    private AdmissionPreview() {
    }

    /** A preview with {@link PreviewSettings#DEFAULT}; {@code surge} may be {@code null}. */
    public static Preview preview(State state, Candidate candidate, Surge surge) {
        return preview(state, candidate, surge, PreviewSettings.DEFAULT);
    }

    /**
     * @param surge {@code null}: every publisher at its declared rate
     * @throws PreviewTooLargeException if the state is beyond the settings' limits
     * @throws IllegalArgumentException if the candidate's label is an existing subscription's, or
     *                                  the surge names a variable the state does not declare
     */
    public static Preview preview(State state, Candidate candidate, Surge surge, PreviewSettings settings) {
        return preview(state, candidate, surge, settings, () -> false);
    }

    /**
     * The same, given up when {@code cancelled} turns true: it is asked before each simulation and
     * after each simulated second of one (each run's report interval), so a cancelled preview ends
     * within a second of simulation, not at the end of the run.
     *
     * @throws CancellationException if {@code cancelled} turned true
     */
    public static Preview preview(State state, Candidate candidate, Surge surge, PreviewSettings settings,
                                  BooleanSupplier cancelled) {
        Objects.requireNonNull(cancelled, "cancelled");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(settings, "settings");
        settings.limits().check(state);
        if (state.subscriptions().stream().anyMatch(s -> s.label().equals(candidate.label()))) {
            throw new IllegalArgumentException("the candidate's label '" + candidate.label() + "' is an existing subscription's");
        }
        if (surge != null && state.variable(surge.variable()) == null) {
            throw new IllegalArgumentException("surge: no variable '" + surge.variable() + "' is declared");
        }
        long started = System.nanoTime();
        AdmissionReplay.Outcome replay = AdmissionReplay.run(state, candidate,
                settings.admission() == Scenario.Admission.FULL, settings.congestion().rates());
        long capped = settings.cappedDuration().toNanos();
        double copies = replay.flows().copiesPerSecond(surge);
        long simulated = settings.limits().affordable(capped, copies);

        List<State.Subscription> withCandidate = new ArrayList<>(replay.admitted());
        if (replay.candidateAdmitted()) {
            withCandidate.add(candidate.asSubscription());
        }
        Scenario withIt = PreviewScenario.of(state, withCandidate, withCandidate, surge, simulated, settings.seed(),
                settings.admission(), settings.congestion());
        Scenario withoutIt = replay.candidateAdmitted()
                ? PreviewScenario.of(state, replay.admitted(), withCandidate, surge, simulated, settings.seed(),
                        settings.admission(), settings.congestion())
                : null;
        boolean sideBySide = PreviewLimits.sideBySide(PreviewLimits.bytesPerRun(withCandidate.size(), replay.flows().size()),
                Runtime.getRuntime().maxMemory()) && Runtime.getRuntime().availableProcessors() > 1;
        LongConsumer check = done -> {
            if (cancelled.getAsBoolean()) {
                throw new CancellationException("the preview was cancelled");
            }
        };
        check.accept(0);
        CompletableFuture<SimulationResult> baseline = withoutIt != null && sideBySide ? besides(withoutIt, check) : null;
        SimulationResult with = Simulation.run(withIt, check);
        SimulationResult without = baseline != null ? join(baseline) : withoutIt != null ? Simulation.run(withoutIt, check) : null;

        Reassignments reassignments = Reassignments.read(with.decisions(), replay.flows(), simulated);
        List<FlowOutlook> flows = new ArrayList<>();
        for (State.Subscription s : withCandidate) {
            boolean isCandidate = s.label().equals(candidate.label());
            // A sample counts as missed only once its deadline has passed within the run.
            long judgedUntil = Math.min(simulated, simulated + PreviewScenario.TAIL - s.qos().latencyBoundNanos());
            flows.add(new FlowOutlook(s.label(), s.flowName(), s.qos().serviceClass(), isCandidate,
                    FlowFigures.of(with.rows(), s.label(), simulated, judgedUntil),
                    without == null || isCandidate ? null : FlowFigures.of(without.rows(), s.label(), simulated, judgedUntil),
                    reassignments.lentBy(s.label()), with.heldAtSource().getOrDefault(s.variable(), 0L)));
        }
        List<String> notes = notes(settings, capped, simulated, copies, withCandidate, surge, with);
        Duration wall = Duration.ofNanos(System.nanoTime() - started);
        return new Preview(replay.candidateAdmitted(), replay.refusal(), replay.candidatePaths(), replay.problems(),
                replay.loads(), flows, reassignments.shortfalls(), surge, simulated, settings.seed(),
                settings.congestion().control(), notes, wall);
    }

    /** Runs a simulation on a thread of its own: the two runs share nothing, so each is as deterministic alone. */
    private static CompletableFuture<SimulationResult> besides(Scenario scenario, LongConsumer check) {
        CompletableFuture<SimulationResult> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(Simulation.run(scenario, check));
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "gridstat-what-if");
        t.setDaemon(true);
        t.start();
        return done;
    }

    private static SimulationResult join(CompletableFuture<SimulationResult> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static List<String> notes(PreviewSettings settings, long capped, long simulated, double copies,
                                      List<State.Subscription> subscriptions, Surge surge, SimulationResult with) {
        List<String> notes = new ArrayList<>();
        if (simulated < capped) {
            notes.add(String.format(Locale.ROOT, "simulated %d s of the %d s asked: the network forwards %,.0f copies a"
                    + " second, and a preview simulates at most %,d", simulated / SECOND, capped / SECOND, copies,
                    settings.limits().maxCopies()));
        }
        if (capped != settings.duration().toNanos()) {
            notes.add(String.format(Locale.ROOT, "%s asked: a preview simulates whole seconds, at most %d s",
                    settings.duration().toString().substring(2).toLowerCase(Locale.ROOT),
                    settings.limits().maxDurationNanos() / SECOND));
        }
        if (surge != null && subscriptions.stream().noneMatch(s -> s.variable().equals(surge.variable()))) {
            notes.add("the surge changes nothing: no admitted subscription takes " + surge.variable());
        }
        if (with.decisions().size() >= SimulationResult.MAX_DECISIONS) {
            notes.add(String.format(Locale.ROOT, "congestion control decided more than %,d times: only the first are told",
                    SimulationResult.MAX_DECISIONS));
        }
        // The simulation's broker is asked exactly what the replay admitted; a refusal there is a
        // divergence to show, not to hide.
        with.admissions().forEach((label, outcome) -> {
            if (!outcome.equals("admitted")) {
                notes.add("the simulated broker did not admit " + label + " (" + outcome + "): its figures are empty");
            }
        });
        return notes;
    }
}
