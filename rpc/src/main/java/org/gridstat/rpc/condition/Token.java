package org.gridstat.rpc.condition;

/**
 * A token of a condition's text.
 *
 * @param start 0-based index of its first character
 */
record Token(Kind kind, int start, String text) {
    enum Kind {
        NAME, NUMBER, DURATION, TRUE, FALSE, FRESH, KNOWN,
        LEFT_PAREN, RIGHT_PAREN, COMMA, NOT, AND, OR,
        EQUAL, NOT_EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL,
        END
    }

    /** Longest piece of a token quoted back in an error message. */
    private static final int QUOTED = 40;

    int column() {
        return start + 1;
    }

    /** How an error message names this token: quoted, shortened if long, or "the end of the condition". */
    String quoted() {
        if (kind == Kind.END) {
            return "the end of the condition";
        }
        return quote(text);
    }

    static String quote(String text) {
        return "'" + (text.length() > QUOTED ? text.substring(0, QUOTED) + "…" : text) + "'";
    }

    /** The comparison this token spells, or null. */
    Relation relation() {
        return switch (kind) {
            case EQUAL -> Relation.EQUAL;
            case NOT_EQUAL -> Relation.NOT_EQUAL;
            case LESS -> Relation.LESS;
            case LESS_OR_EQUAL -> Relation.LESS_OR_EQUAL;
            case GREATER -> Relation.GREATER;
            case GREATER_OR_EQUAL -> Relation.GREATER_OR_EQUAL;
            default -> null;
        };
    }
}
