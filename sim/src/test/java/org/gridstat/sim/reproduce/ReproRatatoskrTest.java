package org.gridstat.sim.reproduce;

import static org.gridstat.sim.reproduce.RatatoskrNetwork.MS;
import static org.gridstat.sim.reproduce.RatatoskrNetwork.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridstat.rpc.client.CallOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Ratatoskr evaluation, short: 2,000 calls per point after 200 of warm-up (the full sweep,
 * 10,000 after 10,000, is {@code gridstat rpc-eval --full}). Early success is held to the
 * analysis within 4.5 standard deviations of a rate measured over that many calls: a bound that
 * sampling alone breaks about once in 150,000 runs, and that a wrong protocol, network or analysis
 * breaks at once.
 */
class ReproRatatoskrTest {
    static final int CALLS = 2_000;
    static final int WARM_UP = 200;
    static final double SIGMAS = 4.5;

    private static void holdsToTheAnalysis(Ratatoskr.Figures f) {
        String why = f.toString();
        assertTrue(Math.abs(f.difference()) <= SIGMAS * f.sigmaOfAnalysis(), "early success " + f.earlySuccess()
                + " against the analysis's " + f.analysis() + " (σ " + f.sigmaOfAnalysis() + "): " + why);
        answeredOnceEach(f);
    }

    /** Every call answered with success, the actuator run exactly once for each call made. */
    private static void answeredOnceEach(Ratatoskr.Figures f) {
        assertEquals(f.calls(), f.outcome(CallOutcome.SUCCESS), "every call answered: " + f.outcomes());
        assertEquals(WARM_UP + CALLS, f.callsMade());
        assertEquals(f.callsMade(), f.executedCalls(), "every call ran: " + f);
        assertEquals(f.executedCalls(), f.executions(), "and no call ran twice: " + f);
        assertTrue(f.atMostOnce());
    }

    @Test
    void underOmissionEarlySuccessFollowsTheAnalysisForEachNumberOfCopies() {
        double[][] points = {{0.02, 1}, {0.08, 1}, {0.05, 2}, {0.08, 4}};
        for (double[] p : points) {
            Ratatoskr.Figures f = Ratatoskr.run(Ratatoskr.Experiment.temporal(p[0], (int) p[1], WARM_UP, CALLS,
                    RatatoskrEvaluation.OMISSION_GAP, 1));
            holdsToTheAnalysis(f);
            if (p[1] == 1 && p[0] == 0.08) {
                // (1 − 0.08)^12 = 0.37 of first tries answered: replies lost and replayed, never run twice
                assertTrue(f.retriesPerCall() > 1.5, f.toString());
            }
        }
    }

    @Test
    void underOutagesEarlySuccessFollowsTheAnalysisForOneAndTwoPaths() {
        for (int k : new int[] {1, 2}) {
            Ratatoskr.Figures f = Ratatoskr.run(Ratatoskr.Experiment.outages(k, 50 * S, S, WARM_UP, CALLS,
                    RatatoskrEvaluation.OUTAGE_GAP, 1));
            holdsToTheAnalysis(f);
            assertTrue(f.maxMillis() > 500, "a call caught in a 1 s outage waits it out: " + f);
        }
    }

    @Test
    void spatialAndTemporalRedundancyAnswerEveryCallWithinThePublished24msUnderCombinedFaults() {
        RatatoskrEvaluation.Plan plan = RatatoskrEvaluation.Plan.brief(CALLS, 1); // a tenth as warm-up: WARM_UP
        RatatoskrEvaluation.Faults mild = RatatoskrEvaluation.COMBINED.get(0);
        Ratatoskr.Figures both = Ratatoskr.run(RatatoskrEvaluation.worstExperiment(plan, configuration(2, 4), mild));
        answeredOnceEach(both);
        assertTrue(both.maxMillis() <= 24, "published: 24 ms at worst; " + both);
        Ratatoskr.Figures none = Ratatoskr.run(RatatoskrEvaluation.worstExperiment(plan, configuration(1, 1), mild));
        answeredOnceEach(none);
        assertTrue(none.maxMillis() > 500, "without redundancy a call waits out an outage (published 939 ms): " + none);
    }

    private static RatatoskrEvaluation.Configuration configuration(int paths, int copies) {
        return RatatoskrEvaluation.CONFIGURATIONS.stream().filter(c -> c.paths() == paths && c.copies() == copies)
                .findFirst().orElseThrow();
    }

    @Test
    void theSameSeedGivesTheSameFigures() {
        Ratatoskr.Experiment e = new Ratatoskr.Experiment(0.03, 20 * S, S, Ratatoskr.redundancy(2, 2), 10, 300,
                Ratatoskr.Gap.exponential(5 * S), 7);
        Ratatoskr.Figures first = Ratatoskr.run(e);
        assertEquals(first, Ratatoskr.run(e));
        assertNotEquals(first, Ratatoskr.run(e.withSeed(8)));
    }

    @Test
    void aRunPlannedTooShortIsRunAgainLongerWithTheSameDraws() {
        Ratatoskr.Experiment e = Ratatoskr.Experiment.outages(1, 50 * S, S, 0, 200, Ratatoskr.Gap.exponential(S), 3);
        long planned = Ratatoskr.durationFor(e);
        assertTrue(planned > 200 * S, "every gap and call, with room: " + planned);
        assertEquals(Ratatoskr.run(e), Ratatoskr.runPlanned(e, planned / 8), "the outages and losses are drawn alike");
    }

    @Test
    void theShortEvaluationWritesItsTablesCsvAndPlots(@TempDir Path dir) throws Exception {
        RatatoskrEvaluation.Results r = RatatoskrEvaluation.run(RatatoskrEvaluation.Plan.brief(200, 1), () -> 0,
                RatatoskrEvaluation.Progress.NONE);
        assertEquals(4, r.temporal().size());
        assertEquals(2, r.spatial().size());
        assertEquals(8, r.worst().size());
        List<Path> files = RatatoskrReport.write(r, dir);
        assertEquals(6, files.size(), files.toString());
        for (Path p : files) {
            assertTrue(Files.size(p) > 0, p.toString());
        }
        List<String> csv = Files.readAllLines(dir.resolve(RatatoskrReport.CSV));
        assertEquals(1 + 4 + 2 + 8, csv.size());
        assertEquals(RatatoskrReport.CSV_HEADER.split(",").length, csv.get(1).split(",").length);
        String md = RatatoskrReport.markdown(r);
        assertTrue(md.contains("| spatial + temporal (k2, n4) | 1 % omission + a 1 s outage every 1,000 s in the network | 24 ms | "), md);
        assertTrue(md.contains("| none (k1, n1) | 8 % omission + a 1 s outage every 50 s in the network | 939 ms | "), md);
        assertTrue(!md.contains("What it cost"), "not timed, no costs");
        assertTrue(!md.contains("BROKEN"), md);
    }
}
