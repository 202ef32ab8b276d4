package org.gridstat.sim.reproduce;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.MS;
import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.client.CallOutcome;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.CallStatistics;
import org.gridstat.rpc.client.RpcClient;
import org.gridstat.rpc.condition.LatestValues;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.PermissionTable;
import org.gridstat.rpc.server.RpcServer;
import org.gridstat.rpc.transport.Redundancy;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.rpc.SequentialCaller;
import org.gridstat.sim.rpc.SimConnection;
import org.gridstat.sim.rpc.SimTimers;

/**
 * One experiment of the Ratatoskr evaluation on {@link RatatoskrNetwork}: an operator at the
 * control center calls {@value #OPERATION} at the substation's server again and again, one call at
 * a time, under omission and outages, with the rpc module's own client, server and 2WoPS endpoints
 * on simulated time. Measured: early success (answered on the first try), retries per call, call
 * times, and at-most-once (how often the actuator ran, and for how many distinct calls).
 */
public final class Ratatoskr {
    public static final String OPERATION = "breaker.open";
    public static final String CALLER = "cc-operator";
    /** Between temporal copies, as published. */
    public static final long SPACING = 2 * MS;
    /** Each call's deadline: far beyond any call here, so none ends unanswered. */
    public static final long DEADLINE = 10 * S;
    /**
     * Tries after the first, the most a request carries: 6.4 s of tries at one copy, longer than
     * any run of outages met here, so every call is answered.
     */
    public static final int RETRIES = Redundancy.MAX_RETRIES;
    /** The operation has no post-condition: its report is not waited for. */
    public static final long POST_WAIT = MS;
    /** The first call: the subscriptions, asked at 0, are in place long before. */
    public static final long FIRST_CALL = 100 * MS;
    /** The client's and the server's ids on the wire, and the client's session. */
    static final long CLIENT_ID = 0xC1;
    static final long SERVER_ID = 0x51;
    static final long SESSION = 1;

    private Ratatoskr() {
    }

    /**
     * The time from one call's result to the next call: fixed, or drawn from an exponential
     * distribution of that mean, so that the calls sample the links' outage process at random
     * (stationary) times rather than in step with it.
     */
    public record Gap(long nanos, boolean exponential) {
        public Gap {
            if (nanos < 0 || (exponential && nanos == 0)) {
                throw new IllegalArgumentException("a gap is 0 or more nanoseconds (an exponential one above 0), got " + nanos);
            }
        }

        public static Gap fixed(long nanos) {
            return new Gap(nanos, false);
        }

        public static Gap exponential(long meanNanos) {
            return new Gap(meanNanos, true);
        }

        long draw(SplittableRandom r) {
            return exponential ? (long) (-Math.log(1 - r.nextDouble()) * nanos) : nanos;
        }

        @Override
        public String toString() {
            String t = nanos % S == 0 ? nanos / S + " s" : String.format(java.util.Locale.ROOT, "%.1f ms", nanos / 1e6);
            return (exponential ? "exponential, mean " : "fixed ") + t;
        }
    }

    /**
     * One experiment.
     *
     * @param omission         each inter-router link's loss probability per packet
     * @param outageEveryNanos mean time between the outages of each directed inter-router link, 0 for none
     * @param outageForNanos   each outage's length
     * @param redundancy       the calls' paths, copies, spacing and retries
     * @param warmUpCalls      calls made first and not counted
     * @param calls            calls counted
     */
    public record Experiment(double omission, long outageEveryNanos, long outageForNanos, Redundancy redundancy,
                             int warmUpCalls, int calls, Gap gap, long seed) {
        public Experiment {
            if (!(omission >= 0 && omission < 1)) {
                throw new IllegalArgumentException("omission must be in [0, 1), got " + omission);
            }
            if (outageEveryNanos < 0 || outageForNanos < 0 || (outageEveryNanos > 0 && outageForNanos == 0)) {
                throw new IllegalArgumentException("outages: a mean time between them of 0 (none) or more, and a length"
                        + " above 0 if there are any");
            }
            if (redundancy.paths() > RatatoskrNetwork.PATH_LEVELS.length) {
                throw new IllegalArgumentException("the network has " + RatatoskrNetwork.PATH_LEVELS.length
                        + " disjoint paths, not " + redundancy.paths());
            }
            if (warmUpCalls < 0 || calls < 1) {
                throw new IllegalArgumentException("warm-up calls must be 0 or more and calls 1 or more");
            }
        }

        /**
         * Under omission alone: {@code copies} temporal copies {@link #SPACING} apart over path A,
         * the calls {@code gap} apart.
         */
        public static Experiment temporal(double omission, int copies, int warmUp, int calls, Gap gap, long seed) {
            return new Experiment(omission, 0, 0, Ratatoskr.redundancy(1, copies), warmUp, calls, gap, seed);
        }

        /** Under outages of {@code forNanos} every {@code everyNanos} per directed link, no omission, one copy. */
        public static Experiment outages(int paths, long everyNanos, long forNanos, int warmUp, int calls, Gap gap,
                                         long seed) {
            return new Experiment(0, everyNanos, forNanos, Ratatoskr.redundancy(paths, 1), warmUp, calls, gap, seed);
        }

        public Experiment withCalls(int warmUp, int n) {
            return new Experiment(omission, outageEveryNanos, outageForNanos, redundancy, warmUp, n, gap, seed);
        }

        public Experiment withSeed(long s) {
            return new Experiment(omission, outageEveryNanos, outageForNanos, redundancy, warmUpCalls, calls, gap, s);
        }

        /** The analysis's early success ({@link RatatoskrNetwork#earlySuccess}). */
        public double analysis() {
            return RatatoskrNetwork.earlySuccess(omission, RatatoskrNetwork.up(outageEveryNanos, outageForNanos),
                    redundancy.paths(), redundancy.copies());
        }
    }

    /** {@code paths} paths, {@code copies} copies {@link #SPACING} apart, {@link #RETRIES} retries. */
    public static Redundancy redundancy(int paths, int copies) {
        return new Redundancy(paths, copies, copies > 1 ? SPACING : 0, RETRIES);
    }

    /**
     * What an experiment measured over its counted calls.
     *
     * @param earlySuccess      the share of calls answered on their first try
     * @param analysis          the analysis's early success for the experiment
     * @param retriesPerCall    tries after the first, per call
     * @param meanMillis        call time of the answered calls, from the call to its answer
     * @param p999Millis        the call time 99.9 % of the answered calls are within (3 significant digits)
     * @param p9999Millis       the same for 99.99 %
     * @param outcomes          how the calls ended
     * @param callsMade         calls made, warm-up included
     * @param executions        times the actuator ran, warm-up included
     * @param executedCalls     distinct calls the actuator ran for (at most once each: equal to
     *                          {@code executions})
     * @param simulatedNanos    simulated time until the last call's answer
     * @param events            actions the event loop ran
     */
    public record Figures(Experiment experiment, long calls, double earlySuccess, double analysis, double retriesPerCall,
                          double meanMillis, double stdDevMillis, double p999Millis, double p9999Millis, double maxMillis,
                          Map<CallOutcome, Long> outcomes,
                          long callsMade, long executions, long executedCalls, long simulatedNanos, long events) {
        public Figures {
            outcomes = Map.copyOf(outcomes);
        }

        /** The half-width of the 95 % confidence interval of {@link #earlySuccess}: 1.96 sqrt(p(1 − p)/N). */
        public double halfWidth95() {
            return 1.96 * Math.sqrt(earlySuccess * (1 - earlySuccess) / calls);
        }

        /**
         * The standard deviation of the measured rate if the analysis were exact: what a difference
         * from it is judged against (a measured rate of 0 or 1 has no spread of its own).
         */
        public double sigmaOfAnalysis() {
            return Math.sqrt(analysis * (1 - analysis) / calls);
        }

        /** Measured less the analysis. */
        public double difference() {
            return earlySuccess - analysis;
        }

        public long outcome(CallOutcome o) {
            return outcomes.getOrDefault(o, 0L);
        }

        /** Whether every counted call was answered with success. */
        public boolean allSucceeded() {
            return outcome(CallOutcome.SUCCESS) == calls;
        }

        /** At most once: the actuator ran once per call it ran for, and for no more calls than were made. */
        public boolean atMostOnce() {
            return executions == executedCalls && executedCalls <= callsMade;
        }
    }

    /** Runs {@code e}: deterministic, the same experiment gives the same figures. */
    public static Figures run(Experiment e) {
        return runPlanned(e, durationFor(e));
    }

    /** Runs {@code e} planned for {@code duration} first, then twice as long until every call ends. */
    static Figures runPlanned(Experiment e, long duration) {
        while (true) {
            Figures f = attempt(e, duration);
            if (f != null) {
                return f;
            }
            // The calls took longer than planned: the same run, longer. The outages and losses are
            // drawn per link in the same order however long the run, so the figures are those of
            // one long enough run.
            duration *= 2;
        }
    }

    /**
     * How long to plan the run for: every call's gap and a generous call time (each try that can
     * be expected to fail twice over), and room for the gaps' spread.
     */
    static long durationFor(Experiment e) {
        long total = (long) e.warmUpCalls() + e.calls();
        double early = Math.max(0.05, e.analysis());
        double timeout = e.redundancy().timeoutNanos(RatatoskrNetwork.LATENCY_BOUND);
        double perCall = e.gap().nanos() + 30 * MS + 2 * timeout * (1 / early - 1);
        double spread = e.gap().exponential() ? 10 * Math.sqrt(total) * e.gap().nanos() : 0;
        return FIRST_CALL + (long) (total * perCall + spread) + 60 * S;
    }

    private static double percentileMillis(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }

    /** One run planned for {@code durationNanos}; {@code null} if the calls did not all end in it. */
    private static Figures attempt(Experiment e, long durationNanos) {
        // the outages are drawn as the run goes: a run of days would otherwise hold them all at once
        Simulation sim = Simulation.prepare(RatatoskrNetwork.scenario(e.omission(), 0, 0, durationNanos, e.seed()));
        if (e.outageEveryNanos() > 0) {
            RatatoskrNetwork.outages(e.outageEveryNanos(), e.outageForNanos(), e.seed()).drive(sim.loop(), sim::change);
        }
        SimTimers timers = new SimTimers(sim.loop());
        SimConnection c = SimConnection.open(sim, timers,
                new SimConnection.End(RatatoskrNetwork.CLIENT_ROUTER, RatatoskrNetwork.CLIENT_LINK,
                        RatatoskrNetwork::requestVariable, CLIENT_ID),
                new SimConnection.End(RatatoskrNetwork.SERVER_ROUTER, RatatoskrNetwork.SERVER_LINK,
                        RatatoskrNetwork::replyVariable, SERVER_ID),
                RatatoskrNetwork.PATH_LEVELS, RatatoskrNetwork.LATENCY_BOUND);
        RpcServer server = new RpcServer(timers, new LatestValues(16, timers::epochNanos),
                PermissionTable.parse(List.of(CALLER + ": *")), null, null);
        CountedBreaker breaker = new CountedBreaker();
        server.export(Operation.of(OPERATION, List.of(ParamType.INTEGER), breaker));
        c.server().inbox(server.inboxFor(c.server()));
        RpcClient client = new RpcClient(c.client(), timers, SESSION, CALLER);
        SplittableRandom gaps = new SplittableRandom(e.seed() ^ 0x6A9L);
        SequentialCaller caller = new SequentialCaller(sim, client, new CallPolicy(e.redundancy(), DEADLINE, POST_WAIT),
                OPERATION, i -> List.of(i), e.warmUpCalls(), e.calls(), () -> e.gap().draw(gaps));
        Histogram times = new Histogram(MS / 1000, 2 * DEADLINE, 3); // from 1 us to beyond the deadline
        caller.onCounted(r -> {
            if (r.code() != null) {
                times.recordValue(Math.min(r.elapsedNanos(), times.getHighestTrackableValue()));
            }
        });
        caller.start(FIRST_CALL);
        sim.execute();
        if (!caller.finished()) {
            return null;
        }
        CallStatistics s = caller.statistics();
        Map<CallOutcome, Long> outcomes = new EnumMap<>(CallOutcome.class);
        outcomes.putAll(s.outcomes());
        return new Figures(e, s.calls(), s.earlySuccessRate(), e.analysis(), s.retriesPerCall(), s.meanMillis(),
                s.stdDevMillis(), percentileMillis(times, 99.9), percentileMillis(times, 99.99), s.maxMillis(), outcomes, caller.made(), server.executions(OPERATION),
                breaker.distinctCalls(), sim.loop().now(), sim.loop().executed());
    }
}
