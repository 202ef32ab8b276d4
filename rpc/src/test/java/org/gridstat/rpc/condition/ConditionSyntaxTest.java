package org.gridstat.rpc.condition;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each syntax error's column and words, and the language's limits. */
class ConditionSyntaxTest {
    private static void refused(String text, int column, String problem) {
        ConditionSyntaxException e = assertThrows(ConditionSyntaxException.class, () -> Condition.parse(text), text);
        assertEquals("column " + column + ": " + problem, e.getMessage(), text);
        assertEquals(column, e.column(), text);
    }

    private static final String A_CONDITION = "a condition (true, false, known(…), fresh(…), a comparison, '(' or '!')";

    @Test
    void emptyText() {
        refused("", 1, "the condition is empty; write 'true' for none");
        refused(" \t\n ", 1, "the condition is empty; write 'true' for none");
    }

    @Test
    void aMissingOperandOrPart() {
        refused("x == 1 &&", 10, "expected " + A_CONDITION + ", found the end of the condition");
        refused("|| x == 1", 1, "expected " + A_CONDITION + ", found '||'");
        refused("x == 1 && && y == 1", 11, "expected " + A_CONDITION + ", found '&&'");
        refused("()", 2, "expected " + A_CONDITION + ", found ')'");
        refused("!", 2, "expected " + A_CONDITION + ", found the end of the condition");
        refused("x", 2, "expected a comparison (==, !=, <, <=, >, >=) after 'x', found the end of the condition");
        refused("x && y", 3, "expected a comparison (==, !=, <, <=, >, >=) after 'x', found '&&'");
        refused("1 fresh", 3, "expected a comparison (==, !=, <, <=, >, >=) after '1', found 'fresh'");
        refused("x == ", 6, "expected a number or a variable name after '==', found the end of the condition");
        refused("x >= true", 6, "expected a number or a variable name after '>=', found 'true'");
        refused("x < 10ms", 5, "expected a number or a variable name after '<', found '10ms'");
    }

    @Test
    void trailingTokens() {
        refused("x == 1)", 7, "expected '&&', '||' or the end of the condition, found ')'");
        refused("x == 1 y == 2", 8, "expected '&&', '||' or the end of the condition, found 'y'");
        refused("x == 1 == 2", 8, "expected '&&', '||' or the end of the condition, found '=='");
        refused("true false", 6, "expected '&&', '||' or the end of the condition, found 'false'");
    }

    @Test
    void parentheses() {
        refused("(x == 1", 8, "expected ')' to close the '(' at column 1, found the end of the condition");
        refused("x == 1 && (y == 2 || (z == 3) w", 31, "expected ')' to close the '(' at column 11, found 'w'");
    }

    @Test
    void freshAndKnown() {
        refused("fresh(x, 10ms && y == 1", 15, "expected ')' after the duration, found '&&'");
        refused("fresh x", 7, "expected '(' after 'fresh', found 'x'");
        refused("fresh == 1", 7, "expected '(' after 'fresh', found '=='");
        refused("fresh(1, 1s)", 7, "expected a variable name in fresh(…), found '1'");
        refused("fresh(x 10ms)", 9, "expected ',' after the variable name in fresh(…), found '10ms'");
        refused("fresh(x, 10)", 10,
                "expected a duration such as 200ms in fresh(…), found '10' (a duration needs its unit: ns, us, ms or s)");
        refused("fresh(x, 10 ms)", 10,
                "expected a duration such as 200ms in fresh(…), found '10' (a duration needs its unit: ns, us, ms or s)");
        refused("fresh(x, y)", 10, "expected a duration such as 200ms in fresh(…), found 'y'");
        refused("fresh(x, -1ms)", 10, "duration '-1ms' must be a non-negative number");
        refused("fresh(x, 1e400s)", 10, "the duration '1e400s' is beyond the range of a double");
        refused("known(x", 8, "expected ')' after the variable name in known(…), found the end of the condition");
        refused("known x", 7, "expected '(' after 'known', found 'x'");
        refused("known()", 7, "expected a variable name in known(…), found ')'");
        refused("known(true)", 7, "expected a variable name in known(…), found 'true'"
                + " (true, false, fresh and known are words of the language, not names)");
    }

    @Test
    void operatorsSpelledWrong() {
        refused("x = 1", 3, "'=' alone is not an operator; equality is '=='");
        refused("x == 1 & y == 1", 8, "a single '&' is not an operator; 'and' is '&&'");
        refused("x == 1 | y == 1", 8, "a single '|' is not an operator; 'or' is '||'");
        refused("x => 1", 3, "'=' alone is not an operator; equality is '=='");
    }

    @Test
    void malformedNumbers() {
        refused("x == 1.2.3", 6, "'1.2.3' is not a number");
        refused("x == 1_000", 6, "'1_000' is not a number");
        refused("x == 0x1F", 6, "'0x1F' is not a number");
        refused("x == 10m", 6, "unknown unit 'm' in '10m'; a duration's unit is ns, us, ms or s");
        refused("x == 1e", 6, "unknown unit 'e' in '1e'; a duration's unit is ns, us, ms or s");
        refused("x == -y", 6, "'-' must be followed by a number");
        refused("x == 1e999", 6, "the number '1e999' is beyond the range of a double");
        // NaN and Infinity are not numbers in the language; spelled out, they are variable names.
        assertEquals(List.of("x", "NaN"), List.copyOf(Condition.parse("x == NaN").variables()));
        assertEquals(new Verdict(false, "no sample of NaN yet"),
                Condition.parse("x == NaN").evaluate(new ScriptedView().with("x", Double.NaN), 0));
    }

    @Test
    void badCharactersAndNames() {
        refused("x == 1 # c", 8, "unexpected character '#'");
        refused("x == 1\u0000", 7, "unexpected control character U+0000; only spaces, tabs and line breaks may separate tokens");
        refused("x ==\u000b1", 5, "unexpected control character U+000B; only spaces, tabs and line breaks may separate tokens");
        refused("x\u0085== 1", 2, "unexpected control character U+0085; only spaces, tabs and line breaks may separate tokens");
        refused("x == 1 && é == 1", 11, "unexpected character U+00E9; a condition is written in ASCII");
        refused("x\u00a0== 1", 2, "unexpected character U+00A0; a condition is written in ASCII");
        refused("a//b == 1", 1, "variable name 'a//b' has an empty segment at position 2");
        refused("x == 1 || a/ == 1", 11, "variable name 'a/' has an empty segment at position 2");
        refused(".x == 1", 1, "unexpected character '.'");
        refused("/x == 1", 1, "unexpected character '/'");
        String longName = "n".repeat(256);
        refused(longName + " == 1", 1, "variable name is 256 characters long, at most 255 allowed");
        assertEquals(List.of("n".repeat(255)), List.copyOf(Condition.parse("n".repeat(255) + " == 1").variables()));
    }

    @Test
    void atMost2048Characters() {
        String padded = "x == 1" + " ".repeat(2048 - 6);
        assertEquals(2048, Condition.parse(padded).text().length());
        refused(padded + " ", 2049, "the condition is 2049 characters long, at most 2048 are allowed");
        refused("(".repeat(100_000), 2049, "the condition is 100000 characters long, at most 2048 are allowed");
    }

    @Test
    void nestingAtMost32Deep() {
        assertEquals(new Verdict(true, "holds"),
                Condition.parse("(".repeat(32) + "true" + ")".repeat(32)).evaluate(new ScriptedView(), 0));
        refused("(".repeat(33) + "true" + ")".repeat(33), 33, "nested more than 32 deep ('(' and '!' each count one)");
        assertEquals(new Verdict(true, "holds"), Condition.parse("!".repeat(32) + "true").evaluate(new ScriptedView(), 0));
        refused("!".repeat(33) + "true", 33, "nested more than 32 deep ('(' and '!' each count one)");
        assertEquals(new Verdict(true, "holds"),
                Condition.parse("!(".repeat(16) + "true" + ")".repeat(16)).evaluate(new ScriptedView(), 0));
        refused("!(".repeat(16) + "!true" + ")".repeat(16), 33, "nested more than 32 deep ('(' and '!' each count one)");
        // Depth is nesting, not count: siblings at the same level do not add up.
        String siblings = String.join(" && ", java.util.Collections.nCopies(10, "(".repeat(31) + "true" + ")".repeat(31)));
        assertEquals(new Verdict(true, "holds"), Condition.parse(siblings).evaluate(new ScriptedView(), 0));
        // Hostile text at the length limit is refused at the limit, without a deep stack.
        refused("(".repeat(2048), 33, "nested more than 32 deep ('(' and '!' each count one)");
        refused("!".repeat(2048), 33, "nested more than 32 deep ('(' and '!' each count one)");
        refused("!(".repeat(1024), 33, "nested more than 32 deep ('(' and '!' each count one)");
    }

    @Test
    void atMost64DistinctVariables() {
        String sixtyFour = IntStream.rangeClosed(1, 64).mapToObj(i -> "v" + i + "==0").collect(Collectors.joining("&&"));
        Condition c = Condition.parse(sixtyFour);
        assertEquals(64, c.variables().size());
        assertEquals("v64", List.copyOf(c.variables()).get(63));
        String sixtyFive = sixtyFour + "&&v65==0";
        refused(sixtyFive, sixtyFour.length() + 3, "a condition may read at most 64 distinct variables; 'v65' is one more");
        refused(sixtyFour + "&&v1==v65", sixtyFour.length() + 7,
                "a condition may read at most 64 distinct variables; 'v65' is one more");
        String repeated = IntStream.range(0, 150).mapToObj(i -> "v==" + i).collect(Collectors.joining("||"));
        assertEquals(List.of("v"), List.copyOf(Condition.parse(repeated).variables()), "a name read again is not another variable");
    }

    @Test
    void theExceptionIsAnIllegalArgument() {
        assertInstanceOf(IllegalArgumentException.class, assertThrows(ConditionSyntaxException.class, () -> Condition.parse("(")));
        assertThrows(NullPointerException.class, () -> Condition.parse(null));
    }
}
