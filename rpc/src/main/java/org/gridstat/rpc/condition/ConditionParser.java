package org.gridstat.rpc.condition;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.gridstat.core.model.DurationText;

/**
 * Recursive descent over the grammar in docs/rpc-conditions.md, with one token of look-ahead.
 * The nesting limit bounds the recursion, so hostile text cannot overflow the stack; chains of
 * {@code &&} and {@code ||} are loops, not recursion.
 */
final class ConditionParser {
    static final int MAX_LENGTH = 2048;
    static final int MAX_DEPTH = 32;
    static final int MAX_VARIABLES = 64;

    private final ConditionLexer lexer;
    private final LinkedHashSet<String> variables = new LinkedHashSet<>();
    private Token current;
    private int depth;

    private ConditionParser(String text) {
        this.lexer = new ConditionLexer(text);
    }

    /** The tree and the variables it reads, in order of first appearance. */
    record Parsed(Node root, LinkedHashSet<String> variables) {
    }

    static Parsed parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new ConditionSyntaxException(MAX_LENGTH + 1,
                    "the condition is " + text.length() + " characters long, at most " + MAX_LENGTH + " are allowed");
        }
        ConditionParser p = new ConditionParser(text);
        p.advance();
        if (p.current.kind() == Token.Kind.END) {
            throw new ConditionSyntaxException(1, "the condition is empty; write 'true' for none");
        }
        Node root = p.or();
        if (p.current.kind() != Token.Kind.END) {
            throw p.expected("'&&', '||' or the end of the condition");
        }
        return new Parsed(root, p.variables);
    }

    private Node or() {
        Node first = and();
        if (current.kind() != Token.Kind.OR) {
            return first;
        }
        List<Node> parts = new ArrayList<>();
        parts.add(first);
        while (current.kind() == Token.Kind.OR) {
            advance();
            parts.add(and());
        }
        return new Disjunction(parts.toArray(Node[]::new));
    }

    private Node and() {
        Node first = unary();
        if (current.kind() != Token.Kind.AND) {
            return first;
        }
        List<Node> parts = new ArrayList<>();
        parts.add(first);
        while (current.kind() == Token.Kind.AND) {
            advance();
            parts.add(unary());
        }
        return new Conjunction(parts.toArray(Node[]::new));
    }

    private Node unary() {
        if (current.kind() != Token.Kind.NOT) {
            return primary();
        }
        enter();
        advance();
        Node operand = unary();
        depth--;
        return new Negation(operand);
    }

    private Node primary() {
        Token t = current;
        switch (t.kind()) {
            case TRUE, FALSE -> {
                advance();
                return new Constant(t.kind() == Token.Kind.TRUE);
            }
            case LEFT_PAREN -> {
                enter();
                advance();
                Node inner = or();
                expect(Token.Kind.RIGHT_PAREN, "')' to close the '(' at column " + t.column());
                depth--;
                return inner;
            }
            case FRESH -> {
                advance();
                expect(Token.Kind.LEFT_PAREN, "'(' after 'fresh'");
                String variable = variable("a variable name in fresh(…)");
                expect(Token.Kind.COMMA, "',' after the variable name in fresh(…)");
                Token d = current;
                if (d.kind() != Token.Kind.DURATION) {
                    String hint = d.kind() == Token.Kind.NUMBER ? " (a duration needs its unit: ns, us, ms or s)" : "";
                    throw new ConditionSyntaxException(d.column(),
                            "expected a duration such as 200ms in fresh(…), found " + d.quoted() + hint);
                }
                long nanos = duration(d);
                advance();
                expect(Token.Kind.RIGHT_PAREN, "')' after the duration");
                return new Freshness(variable, nanos, d.text());
            }
            case KNOWN -> {
                advance();
                expect(Token.Kind.LEFT_PAREN, "'(' after 'known'");
                String variable = variable("a variable name in known(…)");
                expect(Token.Kind.RIGHT_PAREN, "')' after the variable name in known(…)");
                return new Presence(variable);
            }
            case NUMBER, NAME -> {
                Operand left = operand();
                Relation relation = current.relation();
                if (relation == null) {
                    throw expected("a comparison (==, !=, <, <=, >, >=) after " + t.quoted());
                }
                Token operator = current;
                advance();
                if (current.kind() != Token.Kind.NUMBER && current.kind() != Token.Kind.NAME) {
                    throw expected("a number or a variable name after " + operator.quoted());
                }
                return new Comparison(left, relation, operand());
            }
            default -> throw expected("a condition (true, false, known(…), fresh(…), a comparison, '(' or '!')");
        }
    }

    private Operand operand() {
        Token t = current;
        if (t.kind() == Token.Kind.NAME) {
            return new Operand.Variable(variable("a variable name"));
        }
        double value = Double.parseDouble(t.text()); // the lexer admits only Java's decimal syntax
        if (Double.isInfinite(value)) {
            throw new ConditionSyntaxException(t.column(), "the number " + t.quoted() + " is beyond the range of a double");
        }
        advance();
        return new Operand.Literal(value, t.text());
    }

    private String variable(String what) {
        Token t = current;
        if (t.kind() != Token.Kind.NAME) {
            String hint = isKeyword(t.kind()) ? " (true, false, fresh and known are words of the language, not names)" : "";
            throw new ConditionSyntaxException(t.column(), "expected " + what + ", found " + t.quoted() + hint);
        }
        if (variables.add(t.text()) && variables.size() > MAX_VARIABLES) {
            throw new ConditionSyntaxException(t.column(),
                    "a condition may read at most " + MAX_VARIABLES + " distinct variables; " + t.quoted() + " is one more");
        }
        advance();
        return t.text();
    }

    private static long duration(Token t) {
        String written = t.text();
        int unitStart = written.length();
        while (Character.isLetter(written.charAt(unitStart - 1))) {
            unitStart--;
        }
        // DurationText would call an infinite number negative; say what is wrong with it instead.
        if (Double.isInfinite(Double.parseDouble(written.substring(0, unitStart)))) {
            throw new ConditionSyntaxException(t.column(), "the duration " + t.quoted() + " is beyond the range of a double");
        }
        try {
            return DurationText.nanos(t.text());
        } catch (IllegalArgumentException e) {
            throw new ConditionSyntaxException(t.column(), e.getMessage());
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new ConditionSyntaxException(current.column(),
                    "nested more than " + MAX_DEPTH + " deep ('(' and '!' each count one)");
        }
    }

    private void expect(Token.Kind kind, String what) {
        if (current.kind() != kind) {
            throw expected(what);
        }
        advance();
    }

    private ConditionSyntaxException expected(String what) {
        return new ConditionSyntaxException(current.column(), "expected " + what + ", found " + current.quoted());
    }

    private void advance() {
        current = lexer.next();
    }

    private static boolean isKeyword(Token.Kind kind) {
        return kind == Token.Kind.TRUE || kind == Token.Kind.FALSE || kind == Token.Kind.FRESH || kind == Token.Kind.KNOWN;
    }
}
