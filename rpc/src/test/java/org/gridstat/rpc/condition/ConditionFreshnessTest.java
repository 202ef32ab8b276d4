package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * {@code fresh(X, d)} holds iff now - d <= t <= now + the future tolerance, at the exact
 * boundaries, and at the ends of {@code long} without wrapping.
 */
class ConditionFreshnessTest {
    private static final long NOW = 1_800_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long AHEAD = LatestValues.FUTURE_TOLERANCE_NANOS;

    private static Verdict fresh(String text, long sourceTime, long now) {
        return BothPasses.evaluate(Condition.parse(text), new ScriptedView().with("x", 0, sourceTime), now);
    }

    private static Verdict holds() {
        return new Verdict(true, "holds");
    }

    @Test
    void exactlyAsOldAsAllowedHoldsAndOneNanosecondOlderDoesNot() {
        assertEquals(holds(), fresh("fresh(x, 200ms)", NOW - 200 * MS, NOW));
        assertEquals(new Verdict(false, "x is 200.000001 ms old; fresh(x, 200ms) asks for at most 200 ms"),
                fresh("fresh(x, 200ms)", NOW - 200 * MS - 1, NOW));
        assertEquals(holds(), fresh("fresh(x, 200ms)", NOW, NOW));
    }

    @Test
    void stampedUpToTheToleranceAheadHoldsAndOneNanosecondMoreDoesNot() {
        assertEquals(1_000_000_000L, AHEAD);
        assertEquals(holds(), fresh("fresh(x, 200ms)", NOW + AHEAD, NOW));
        assertEquals(new Verdict(false, "x is stamped 1.000000001 s ahead of the clock; fresh(x, 200ms) allows at most 1 s ahead"),
                fresh("fresh(x, 200ms)", NOW + AHEAD + 1, NOW));
    }

    @Test
    void theOperatorReadsHowOldTheSampleIs() {
        Condition c = Condition.parse("fresh(sub1/breaker52/state, 200ms)");
        Verdict v = BothPasses.evaluate(c, new ScriptedView().with("sub1/breaker52/state", 1, NOW - 340 * MS), NOW);
        assertEquals(new Verdict(false,
                "sub1/breaker52/state is 340 ms old; fresh(sub1/breaker52/state, 200ms) asks for at most 200 ms"), v);
        assertEquals(new Verdict(false, "no sample of sub1/breaker52/state yet"), BothPasses.evaluate(c, new ScriptedView(), NOW));
    }

    @Test
    void everyUnitIsRead() {
        assertEquals(holds(), fresh("fresh(x, 250us)", NOW - 250_000, NOW));
        assertEquals(new Verdict(false, "x is 250.001 us old; fresh(x, 250us) asks for at most 250 us"),
                fresh("fresh(x, 250us)", NOW - 250_001, NOW));
        assertEquals(holds(), fresh("fresh(x, 500ns)", NOW - 500, NOW));
        assertEquals(new Verdict(false, "x is 501 ns old; fresh(x, 500ns) asks for at most 500 ns"),
                fresh("fresh(x, 500ns)", NOW - 501, NOW));
        assertEquals(holds(), fresh("fresh(x, 2s)", NOW - 2_000_000_000L, NOW));
        assertEquals(new Verdict(false, "x is 2.5 s old; fresh(x, 2s) asks for at most 2 s"),
                fresh("fresh(x, 2s)", NOW - 2_500_000_000L, NOW));
        assertEquals(holds(), fresh("fresh(x, 1.5ms)", NOW - 1_500_000, NOW));
        assertEquals(holds(), fresh("fresh(x, 1e3MS)", NOW - 1_000_000_000L, NOW), "units as DurationText reads them");
        assertEquals(holds(), fresh("fresh(x, 0ns)", NOW, NOW));
        assertEquals(new Verdict(false, "x is 1 ns old; fresh(x, 0ns) asks for at most 0 ns"), fresh("fresh(x, 0ns)", NOW - 1, NOW));
    }

    @Test
    void aHugeDurationSaturatesInsteadOfWrapping() {
        // 1e300 s is far beyond a long of nanoseconds: DurationText clamps it to Long.MAX_VALUE.
        String forever = "fresh(x, 1e300s)";
        assertEquals(holds(), fresh(forever, 0, NOW));
        assertEquals(holds(), fresh(forever, Long.MIN_VALUE, -1), "now - d saturates at Long.MIN_VALUE");
        assertEquals(holds(), fresh(forever, Long.MIN_VALUE, Long.MIN_VALUE));
        assertEquals(new Verdict(false, "x is 9223372036.854775807 s old; fresh(x, 1e300s) asks for at most 9223372036.854775807 s"),
                fresh(forever, Long.MIN_VALUE, NOW), "now - d = NOW - Long.MAX_VALUE is later than Long.MIN_VALUE");
        assertEquals(holds(), fresh("fresh(x, 9223372036.854775807s)", Long.MIN_VALUE + 1, 0));
    }

    @Test
    void sourceTimesAndClocksAtTheEndsOfLongDoNotWrap() {
        assertEquals(holds(), fresh("fresh(x, 1s)", Long.MAX_VALUE, Long.MAX_VALUE), "now + tolerance saturates at Long.MAX_VALUE");
        assertEquals(holds(), fresh("fresh(x, 1s)", Long.MAX_VALUE - AHEAD, Long.MAX_VALUE - AHEAD + 1));
        assertEquals(new Verdict(false, "x is stamped 9223372036.854775807 s ahead of the clock; fresh(x, 1s) allows at most 1 s ahead"),
                fresh("fresh(x, 1s)", Long.MAX_VALUE, Long.MIN_VALUE));
        assertEquals(new Verdict(false, "x is 9223372036.854775807 s old; fresh(x, 1s) asks for at most 1 s"),
                fresh("fresh(x, 1s)", Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(new Verdict(false, "x is 9223372036.854775807 s old; fresh(x, 1s) asks for at most 1 s"),
                fresh("fresh(x, 1s)", Long.MIN_VALUE, NOW));
        assertEquals(holds(), fresh("fresh(x, 1s)", Long.MIN_VALUE, Long.MIN_VALUE));
        assertEquals(holds(), fresh("fresh(x, 1s)", Long.MIN_VALUE + AHEAD, Long.MIN_VALUE), "now - d saturates");
    }

    @Test
    void freshnessWithValues() {
        Condition c = Condition.parse("fresh(sub1/breaker52/state, 200ms) && sub1/breaker52/state == 1");
        assertEquals(new Verdict(false, "sub1/breaker52/state == 1 is false: the value is 0"),
                BothPasses.evaluate(c, new ScriptedView().with("sub1/breaker52/state", 0, NOW - 10 * MS), NOW));
        assertEquals(holds(), BothPasses.evaluate(c, new ScriptedView().with("sub1/breaker52/state", 1, NOW - 10 * MS), NOW));
        assertEquals(new Verdict(false,
                "sub1/breaker52/state is 1000 s old; fresh(sub1/breaker52/state, 200ms) asks for at most 200 ms"),
                BothPasses.evaluate(c, new ScriptedView().with("sub1/breaker52/state", 1, NOW - 1_000_000 * MS), NOW));
    }
}
