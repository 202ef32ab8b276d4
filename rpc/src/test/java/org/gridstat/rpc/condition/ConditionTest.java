package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The language's grammar and the values of its comparisons, constants and connectives. */
class ConditionTest {
    private static final long NOW = 1_800_000_000_000_000_000L;

    private static Verdict holds() {
        return new Verdict(true, "holds");
    }

    private static Verdict fails(String why) {
        return new Verdict(false, why);
    }

    private static Verdict evaluate(String text, ScriptedView view) {
        Condition c = Condition.parse(text);
        BothPasses.evaluate(c, view, NOW);
        view.reads.clear(); // tests of short-circuiting count the reads of one evaluate
        return c.evaluate(view, NOW);
    }

    @ParameterizedTest(name = "{0} with a/x={1}, a/y={2}")
    @CsvSource(delimiter = '|', textBlock = """
            a/x == 1    | 1     | 0 | holds
            a/x == 1    | 0     | 0 | a/x == 1 is false: the value is 0
            1 == a/x    | 1     | 0 | holds
            1 == a/x    | 2     | 0 | 1 == a/x is false: the value is 2
            a/x == a/y  | 3     | 3 | holds
            a/x == a/y  | 3     | 4 | a/x == a/y is false: a/x is 3, a/y is 4
            a/x != 1    | 0     | 0 | holds
            a/x != 1    | 1     | 0 | a/x != 1 is false: the value is 1
            1 != a/x    | 0     | 0 | holds
            1 != a/x    | 1     | 0 | 1 != a/x is false: the value is 1
            a/x != a/y  | 3     | 4 | holds
            a/x != a/y  | 3     | 3 | a/x != a/y is false: a/x is 3, a/y is 3
            a/x < 1     | 0.5   | 0 | holds
            a/x < 1     | 1     | 0 | a/x < 1 is false: the value is 1
            1 < a/x     | 1.5   | 0 | holds
            1 < a/x     | 1     | 0 | 1 < a/x is false: the value is 1
            a/x < a/y   | 2     | 3 | holds
            a/x < a/y   | 3     | 3 | a/x < a/y is false: a/x is 3, a/y is 3
            a/x <= 1    | 1     | 0 | holds
            a/x <= 1    | 1.25  | 0 | a/x <= 1 is false: the value is 1.25
            1 <= a/x    | 1     | 0 | holds
            1 <= a/x    | 0.75  | 0 | 1 <= a/x is false: the value is 0.75
            a/x <= a/y  | 3     | 3 | holds
            a/x <= a/y  | 4     | 3 | a/x <= a/y is false: a/x is 4, a/y is 3
            a/x > 1     | 2     | 0 | holds
            a/x > 1     | 1     | 0 | a/x > 1 is false: the value is 1
            1 > a/x     | 0     | 0 | holds
            1 > a/x     | 1     | 0 | 1 > a/x is false: the value is 1
            a/x > a/y   | 4     | 3 | holds
            a/x > a/y   | 3     | 3 | a/x > a/y is false: a/x is 3, a/y is 3
            a/x >= 1    | 1     | 0 | holds
            a/x >= 1    | -1    | 0 | a/x >= 1 is false: the value is -1
            1 >= a/x    | 1     | 0 | holds
            1 >= a/x    | 1.001 | 0 | 1 >= a/x is false: the value is 1.001
            a/x >= a/y  | 3     | 3 | holds
            a/x >= a/y  | 2     | 3 | a/x >= a/y is false: a/x is 2, a/y is 3
            """)
    void everyOperatorOnEitherSide(String text, double x, double y, String expected) {
        Verdict v = evaluate(text, new ScriptedView().with("a/x", x).with("a/y", y));
        assertEquals(new Verdict(expected.equals("holds"), expected), v);
    }

    @Test
    void numbersCompareWithNumbers() {
        assertEquals(holds(), evaluate("1 < 2", new ScriptedView()));
        assertEquals(fails("2 < 1 is false"), evaluate("2 < 1", new ScriptedView()));
        assertEquals(holds(), evaluate("-0 == 0", new ScriptedView()), "-0 and 0 are the same value");
    }

    @Test
    void numbersAreReadAsWritten() {
        ScriptedView view = new ScriptedView().with("x", -150);
        assertEquals(holds(), evaluate("x == -1.5e2", view));
        assertEquals(holds(), evaluate("x == -150.", view));
        assertEquals(holds(), evaluate("x < -.5", view));
        assertEquals(holds(), evaluate("x >= -1.5E+2", view));
        assertEquals(fails("x > 1E-3 is false: the value is -150"), evaluate("x > 1E-3", view));
        assertEquals(holds(), evaluate("x < 1e-999999999999999999999999999999", view), "a number too small for a double is 0");
    }

    @Test
    void aNaNValueMakesEveryComparisonFalseEvenNotEqual() {
        ScriptedView view = new ScriptedView().with("x", Double.NaN).with("y", 1);
        for (String op : List.of("==", "!=", "<", "<=", ">", ">=")) {
            assertEquals(fails("x " + op + " 1 is false: the value is NaN"), evaluate("x " + op + " 1", view));
            assertEquals(fails("1 " + op + " x is false: the value is NaN"), evaluate("1 " + op + " x", view));
            assertEquals(fails("y " + op + " x is false: y is 1, x is NaN"), evaluate("y " + op + " x", view));
            assertEquals(fails("x " + op + " x is false: the value is NaN"), evaluate("x " + op + " x", view));
        }
        assertEquals(holds(), evaluate("known(x)", view), "a NaN is still a sample");
    }

    @Test
    void aComparisonWithAVariableWithoutASampleIsFalse() {
        ScriptedView view = new ScriptedView().with("x", 1);
        assertEquals(fails("no sample of y yet"), evaluate("y > 0", view));
        assertEquals(fails("no sample of y yet"), evaluate("0 < y", view));
        assertEquals(fails("no sample of y yet"), evaluate("x == y", view));
        assertEquals(fails("no sample of y yet"), evaluate("y != x", view));
        assertEquals(fails("no sample of y yet"), evaluate("known(y)", view));
        assertEquals(holds(), evaluate("known(x)", view));
    }

    @Test
    void constants() {
        assertEquals(holds(), evaluate("true", new ScriptedView()));
        assertEquals(fails("'false' never holds"), evaluate("false", new ScriptedView()));
        assertEquals(fails("'false' never holds"), evaluate("true && false", new ScriptedView()));
        assertSame(Condition.ALWAYS.evaluate(new ScriptedView(), NOW), Condition.ALWAYS.evaluate(new ScriptedView(), 0),
                "a verdict that holds is one shared value");
        assertEquals("true", Condition.ALWAYS.text());
        assertEquals("true", Condition.ALWAYS.toString());
        assertEquals(List.of(), List.copyOf(Condition.ALWAYS.variables()));
    }

    @Test
    void andBindsTighterThanOr() {
        String text = "a == 1 || b == 1 && c == 1";
        // read as a == 1 || (b == 1 && c == 1); the other reading, (a == 1 || b == 1) && c == 1, is false here
        assertEquals(holds(), evaluate(text, new ScriptedView().with("a", 1).with("b", 0).with("c", 0)));
        assertEquals(fails("a == 1 is false: the value is 0"),
                evaluate(text, new ScriptedView().with("a", 0).with("b", 1).with("c", 0)),
                "every alternative fails; the first failing leaf in evaluation order is named");
        assertEquals(holds(), evaluate(text, new ScriptedView().with("a", 0).with("b", 1).with("c", 1)));
    }

    @Test
    void parenthesesGroup() {
        ScriptedView view = new ScriptedView().with("a", 1).with("b", 0).with("c", 0);
        assertEquals(fails("c == 1 is false: the value is 0"), evaluate("(a == 1 || b == 1) && c == 1", view));
        assertEquals(holds(), evaluate("((((a == 1))))", view));
        assertEquals(fails("b == 1 is false: the value is 0"), evaluate("a == 1 && (b == 1 || c == 0 && false)", view));
    }

    @Test
    void andStopsAtTheFirstFalsePart() {
        ScriptedView view = new ScriptedView();
        assertEquals(fails("no sample of x yet"), evaluate("known(x) && x > 1", view),
                "known(x) fails first; x's value is never asked for");
        assertFalse(view.reads.contains("value x"));
        assertEquals(List.of("known x", "known x"), view.reads, "one read by the evaluation, one by the explanation");
    }

    @Test
    void orStopsAtTheFirstTruePart() {
        ScriptedView view = new ScriptedView().with("x", 2);
        assertEquals(holds(), evaluate("x > 1 || y > 1", view));
        assertEquals(List.of("known x", "value x"), view.reads, "y is never read");
        view.reads.clear();
        assertEquals(holds(), evaluate("true || y > 1", view));
        assertEquals(List.of(), view.reads);
    }

    @Test
    void negation() {
        assertEquals(holds(), evaluate("!(x == 1)", new ScriptedView().with("x", 0)));
        assertEquals(fails("not (x == 1) is false: x == 1 holds"), evaluate("!(x == 1)", new ScriptedView().with("x", 1)));
        assertEquals(fails("not (x == 1) is false: x == 1 holds"), evaluate("!x == 1", new ScriptedView().with("x", 1)),
                "'!' applies to the whole comparison");
        assertEquals(holds(), evaluate("!(x == 1)", new ScriptedView()), "the negation of a false leaf holds, even for want of a sample");
        assertEquals(holds(), evaluate("!!(x == 1)", new ScriptedView().with("x", 1)));
        assertEquals(holds(), evaluate("!!!x == 1", new ScriptedView().with("x", 0)));
        assertEquals(fails("not (!!(x == 1)) is false: !!(x == 1) holds"), evaluate("!!!x == 1", new ScriptedView().with("x", 1)));
        assertEquals(fails("not (a == 1 && (b == 1 || c == 1)) is false: a == 1 && (b == 1 || c == 1) holds"),
                evaluate("!(a==1&&(b==1||c==1))", new ScriptedView().with("a", 1).with("b", 0).with("c", 1)));
        assertEquals(fails("not (known(x)) is false: known(x) holds"), evaluate("!known(x)", new ScriptedView().with("x", 0)));
    }

    @Test
    void whitespaceIsFreeBetweenTokensAndTheTextIsKeptAsWritten() {
        String text = "\t x==1\n&&\r\nfresh( x ,1s )  ";
        Condition c = Condition.parse(text);
        assertEquals(text, c.text());
        assertEquals(text, c.toString());
        assertEquals(fails("x == 1 is false: the value is 2"), BothPasses.evaluate(c, new ScriptedView().with("x", 2, NOW), NOW));
        assertEquals(holds(), BothPasses.evaluate(c, new ScriptedView().with("x", 1, NOW), NOW));
        assertEquals(Condition.parse(text), c);
        assertNotEquals(Condition.parse("x == 1 && fresh(x, 1s)"), c, "two texts, two conditions");
    }

    @Test
    void variablesInOrderOfFirstAppearance() {
        Condition c = Condition.parse("sub1/b > 1 && fresh(a.x, 1s) || known(c-2) && sub1/b < a.x || _d == 1");
        assertEquals(List.of("sub1/b", "a.x", "c-2", "_d"), List.copyOf(c.variables()));
        assertThrows(UnsupportedOperationException.class, () -> c.variables().add("e"));
    }

    @Test
    void namesMayContainKeywordsAndStartWithThem() {
        ScriptedView view = new ScriptedView().with("trueish", 1).with("known/x", 2).with("fresh-1", 3);
        assertEquals(holds(), evaluate("trueish == 1 && known/x == 2 && fresh-1 == 3", view));
        assertEquals(holds(), evaluate("x>-1", new ScriptedView().with("x", 0)), "'>' then the number -1");
    }

    @Test
    void aHoldingEvaluationAllocatesNothing() {
        LatestValues values = new LatestValues(8, () -> NOW);
        values.update("sub1/breaker52/state", 1, NOW - 1_000_000);
        values.update("sub1/line7/mw", 95.5, NOW - 2_000_000);
        Condition c = Condition.parse("fresh(sub1/breaker52/state, 200ms) && sub1/breaker52/state == 1 "
                + "&& !(sub1/line7/mw > 100) && (known(sub1/x) || sub1/line7/mw >= 0)");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        int held = 0;
        for (int i = 0; i < 200_000; i++) { // until the JIT's optimising compiler has the path
            held += c.evaluate(values, NOW).holds() ? 1 : 0;
        }
        int calls = 100_000;
        long least = Long.MAX_VALUE;
        for (int window = 0; window < 3 && least >= calls; window++) {
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < calls; i++) {
                held += c.evaluate(values, NOW).holds() ? 1 : 0;
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
        }
        assertTrue(held >= 300_000, "it holds on every call");
        assertTrue(least < calls, least + " bytes allocated over " + calls + " evaluations: under a byte each");
    }
}
