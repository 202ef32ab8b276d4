package org.gridstat.core.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The hierarchical name of a status variable, such as {@code utilityA/sub3/pmu1/freq}: segments of
 * letters, digits, '_', '-' and '.', separated by '/'.
 */
public final class VariableName implements Comparable<VariableName> {
    /** Longest accepted name, in characters. */
    public static final int MAX_LENGTH = 255;

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.\\-]+");

    private final String value;

    private VariableName(String value) {
        this.value = value;
    }

    /**
     * Parses a name.
     *
     * @throws IllegalArgumentException naming what is wrong with the text
     */
    public static VariableName of(String text) {
        Objects.requireNonNull(text, "variable name");
        if (text.isEmpty()) {
            throw new IllegalArgumentException("variable name is empty");
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "variable name is " + text.length() + " characters long, at most " + MAX_LENGTH + " allowed");
        }
        String[] segments = text.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("variable name '" + text + "' has an empty segment at position " + (i + 1));
            }
            if (!SEGMENT.matcher(segment).matches()) {
                throw new IllegalArgumentException("variable name '" + text + "': segment '" + segment
                        + "' may hold only letters, digits, '_', '-' and '.'");
            }
        }
        return new VariableName(text);
    }

    /** The name's segments, from the root. */
    public String[] segments() {
        return value.split("/");
    }

    @Override
    public int compareTo(VariableName other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableName && ((VariableName) o).value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
