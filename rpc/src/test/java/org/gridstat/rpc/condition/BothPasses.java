package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A condition is evaluated in two passes, a quiet one and, when it is false, one that finds the
 * words. {@link Condition#evaluate} trusts the second when they differ (the samples may have
 * moved), so a wrong first pass would go unseen; tests check on a still view that they agree.
 */
final class BothPasses {
    private BothPasses() {
    }

    static Verdict evaluate(Condition c, StatusView view, long now) {
        boolean quiet = c.holds(view, now);
        String why = c.whyNot(view, now);
        assertEquals(quiet, why == null, c.text() + ": the first pass says " + quiet + ", the second " + why);
        Verdict v = c.evaluate(view, now);
        assertEquals(quiet, v.holds(), c.text());
        return v;
    }
}
