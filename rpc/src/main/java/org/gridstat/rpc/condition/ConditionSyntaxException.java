package org.gridstat.rpc.condition;

/**
 * A condition's text that is not in the language or exceeds one of its limits. The message starts
 * with the 1-based column the problem was found at and says what was expected there.
 */
public final class ConditionSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int column;

    ConditionSyntaxException(int column, String problem) {
        super("column " + column + ": " + problem);
        this.column = column;
    }

    /** The 1-based position in the text (in UTF-16 characters, line breaks included). */
    public int column() {
        return column;
    }
}
