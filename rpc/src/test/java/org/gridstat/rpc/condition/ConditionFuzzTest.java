package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Whatever text an operation is exported with, {@link Condition#parse} returns a condition or
 * throws {@link ConditionSyntaxException} naming a column inside the text; nothing else escapes,
 * a stack overflow included. A parsed condition evaluates without throwing, with no samples and
 * with a sample of every variable it names, at the ends of the clock too. Seed corpus in the
 * resources folder of the same name.
 */
class ConditionFuzzTest {
    private static final long[] NOWS = {0, 1_800_000_000_000_000_000L, Long.MIN_VALUE, Long.MAX_VALUE};
    private static final double[] VALUES = {0, 1, -1, 0.5, Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e300};
    private static final long[] TIMES = {0, 1_800_000_000_000_000_000L, Long.MIN_VALUE, Long.MAX_VALUE, -1};

    @FuzzTest(maxDuration = "10s")
    void parseArbitraryText(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Condition c;
        try {
            c = Condition.parse(text);
        } catch (ConditionSyntaxException e) {
            assertTrue(e.getMessage().startsWith("column " + e.column() + ": "), e.getMessage());
            assertTrue(e.column() >= 1 && e.column() <= text.length() + 1, e.getMessage());
            return;
        }
        assertEquals(text, c.text());
        assertTrue(c.variables().size() <= 64);
        checkVerdict(c, Map.of());
        Map<String, Integer> every = new HashMap<>();
        int i = 0;
        for (String name : c.variables()) {
            every.put(name, i++);
        }
        checkVerdict(c, every);
        assertEquals(c, Condition.parse(text));
    }

    private static void checkVerdict(Condition c, Map<String, Integer> present) {
        StatusView view = new StatusView() {
            @Override
            public boolean known(String variable) {
                return present.containsKey(variable);
            }

            @Override
            public double value(String variable) {
                return VALUES[index(variable) % VALUES.length];
            }

            @Override
            public long sourceTimeNanos(String variable) {
                return TIMES[index(variable) % TIMES.length];
            }

            private int index(String variable) {
                Integer i = present.get(variable);
                if (i == null) {
                    throw new AssertionError("read of " + variable + ", which has no sample");
                }
                return i;
            }
        };
        Set<String> names = c.variables();
        for (long now : NOWS) {
            Verdict v = BothPasses.evaluate(c, view, now);
            assertNotNull(v.explanation());
            assertEquals(v.holds(), v.explanation().equals("holds"), v.explanation());
            if (!v.holds() && present.isEmpty() && !names.isEmpty() && v.explanation().startsWith("no sample of ")) {
                String named = v.explanation().substring("no sample of ".length(), v.explanation().length() - " yet".length());
                assertTrue(names.contains(named), v.explanation());
            }
        }
    }
}
