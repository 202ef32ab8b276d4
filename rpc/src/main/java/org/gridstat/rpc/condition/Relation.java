package org.gridstat.rpc.condition;

/** The comparison operators. Operands are never NaN here: a NaN makes the comparison false before. */
enum Relation {
    EQUAL("=="),
    NOT_EQUAL("!="),
    LESS("<"),
    LESS_OR_EQUAL("<="),
    GREATER(">"),
    GREATER_OR_EQUAL(">=");

    private final String symbol;

    Relation(String symbol) {
        this.symbol = symbol;
    }

    boolean test(double left, double right) {
        return switch (this) {
            case EQUAL -> left == right;
            case NOT_EQUAL -> left != right;
            case LESS -> left < right;
            case LESS_OR_EQUAL -> left <= right;
            case GREATER -> left > right;
            case GREATER_OR_EQUAL -> left >= right;
        };
    }

    String symbol() {
        return symbol;
    }
}
