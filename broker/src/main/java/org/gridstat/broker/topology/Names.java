package org.gridstat.broker.topology;

import java.util.regex.Pattern;

/**
 * The one rule for router ids and link names, shared by the topology and the management API: a
 * router or delivery link the broker governs is always one a client can name in a request.
 */
public final class Names {
    /** Longest router id or link name. */
    public static final int MAX_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");

    private Names() {
    }

    /** Whether {@code value} is 1 to 64 letters, digits, '.', '_' or '-'. */
    public static boolean valid(String value) {
        return value != null && NAME.matcher(value).matches();
    }

    /** What a name must be, for messages. */
    public static String rule() {
        return "1.." + MAX_LENGTH + " letters, digits, '.', '_' or '-'";
    }
}
