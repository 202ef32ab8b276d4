package org.gridstat.rpc.condition;

import org.gridstat.core.model.VariableName;

/**
 * Splits a condition's text into tokens, one at a time as the parser asks, so the first problem
 * reported is the leftmost. Every character is looked at a bounded number of times (no regular
 * expressions on the untrusted text), so lexing is linear in its length.
 */
final class ConditionLexer {
    private final String text;
    private int pos;

    ConditionLexer(String text) {
        this.text = text;
    }

    Token next() {
        while (pos < text.length() && isSpace(text.charAt(pos))) {
            pos++;
        }
        if (pos == text.length()) {
            return new Token(Token.Kind.END, pos, "");
        }
        int start = pos;
        char c = text.charAt(pos);
        switch (c) {
            case '(':
                return single(Token.Kind.LEFT_PAREN);
            case ')':
                return single(Token.Kind.RIGHT_PAREN);
            case ',':
                return single(Token.Kind.COMMA);
            case '!':
                return followedByEquals() ? pair(Token.Kind.NOT_EQUAL) : single(Token.Kind.NOT);
            case '<':
                return followedByEquals() ? pair(Token.Kind.LESS_OR_EQUAL) : single(Token.Kind.LESS);
            case '>':
                return followedByEquals() ? pair(Token.Kind.GREATER_OR_EQUAL) : single(Token.Kind.GREATER);
            case '=':
                if (followedByEquals()) {
                    return pair(Token.Kind.EQUAL);
                }
                throw new ConditionSyntaxException(start + 1, "'=' alone is not an operator; equality is '=='");
            case '&':
                if (followedBy('&')) {
                    return pair(Token.Kind.AND);
                }
                throw new ConditionSyntaxException(start + 1, "a single '&' is not an operator; 'and' is '&&'");
            case '|':
                if (followedBy('|')) {
                    return pair(Token.Kind.OR);
                }
                throw new ConditionSyntaxException(start + 1, "a single '|' is not an operator; 'or' is '||'");
            default:
                break;
        }
        if (isDigit(c) || c == '-' || (c == '.' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1)))) {
            return number();
        }
        if (isLetter(c) || c == '_') {
            return name();
        }
        throw new ConditionSyntaxException(start + 1, "unexpected " + describe(c));
    }

    private Token number() {
        int start = pos;
        int i = pos;
        if (text.charAt(i) == '-') {
            i++;
        }
        int integerStart = i;
        i = digits(i);
        boolean integerDigits = i > integerStart;
        boolean fractionDigits = false;
        if (i < text.length() && text.charAt(i) == '.') {
            int fractionEnd = digits(i + 1);
            fractionDigits = fractionEnd > i + 1;
            if (integerDigits || fractionDigits) {
                i = fractionEnd;
            }
        }
        if (!integerDigits && !fractionDigits) {
            throw new ConditionSyntaxException(start + 1, "'-' must be followed by a number");
        }
        if (i < text.length() && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < text.length() && (text.charAt(j) == '+' || text.charAt(j) == '-')) {
                j++;
            }
            int exponentEnd = digits(j);
            if (exponentEnd > j) {
                i = exponentEnd;
            }
        }
        int numberEnd = i;
        while (i < text.length() && isNameChar(text.charAt(i))) {
            i++;
        }
        pos = i;
        String suffix = text.substring(numberEnd, i);
        if (suffix.isEmpty()) {
            return new Token(Token.Kind.NUMBER, start, text.substring(start, numberEnd));
        }
        String written = text.substring(start, i);
        if (isUnit(suffix)) {
            return new Token(Token.Kind.DURATION, start, written);
        }
        if (isLetter(suffix.charAt(0)) && allLetters(suffix)) {
            throw new ConditionSyntaxException(start + 1, "unknown unit " + Token.quote(suffix) + " in "
                    + Token.quote(written) + "; a duration's unit is ns, us, ms or s");
        }
        throw new ConditionSyntaxException(start + 1, Token.quote(written) + " is not a number");
    }

    private Token name() {
        int start = pos;
        int i = pos + 1;
        while (i < text.length() && isNameChar(text.charAt(i))) {
            i++;
        }
        pos = i;
        String word = text.substring(start, i);
        Token.Kind keyword = switch (word) {
            case "true" -> Token.Kind.TRUE;
            case "false" -> Token.Kind.FALSE;
            case "fresh" -> Token.Kind.FRESH;
            case "known" -> Token.Kind.KNOWN;
            default -> null;
        };
        if (keyword != null) {
            return new Token(keyword, start, word);
        }
        try {
            VariableName.of(word);
        } catch (IllegalArgumentException e) {
            throw new ConditionSyntaxException(start + 1, e.getMessage());
        }
        return new Token(Token.Kind.NAME, start, word);
    }

    private int digits(int from) {
        int i = from;
        while (i < text.length() && isDigit(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private boolean followedByEquals() {
        return followedBy('=');
    }

    private boolean followedBy(char c) {
        return pos + 1 < text.length() && text.charAt(pos + 1) == c;
    }

    private Token single(Token.Kind kind) {
        Token t = new Token(kind, pos, text.substring(pos, pos + 1));
        pos += 1;
        return t;
    }

    private Token pair(Token.Kind kind) {
        Token t = new Token(kind, pos, text.substring(pos, pos + 2));
        pos += 2;
        return t;
    }

    private static boolean isUnit(String suffix) {
        return suffix.equalsIgnoreCase("ns") || suffix.equalsIgnoreCase("us")
                || suffix.equalsIgnoreCase("ms") || suffix.equalsIgnoreCase("s");
    }

    private static boolean allLetters(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isLetter(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    // Line breaks and tabs separate tokens like spaces, so a long condition may be folded in a
    // configuration file; every other control character is refused.
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** The characters of a variable name, as {@link VariableName} accepts them. */
    private static boolean isNameChar(char c) {
        return isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '/';
    }

    private static String describe(char c) {
        if (Character.isISOControl(c)) {
            return String.format("control character U+%04X; only spaces, tabs and line breaks may separate tokens", (int) c);
        }
        if (c < 0x7F) {
            return "character '" + c + "'";
        }
        return String.format("character U+%04X; a condition is written in ASCII", (int) c);
    }
}
