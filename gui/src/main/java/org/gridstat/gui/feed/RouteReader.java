package org.gridstat.gui.feed;

import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerException;

/**
 * Reads one resource's GET route from the leading replica and parses it ({@link ResourceParser});
 * any failure (no answer in time, no leader, an error status, an unreadable body) is one
 * {@link Failed} saying what went wrong in the operator's words.
 */
final class RouteReader {
    private final BrokerConnection connection;
    private final ResourceParser parser = new ResourceParser();

    RouteReader(BrokerConnection connection) {
        this.connection = connection;
    }

    /** Why a read failed; {@code unreachable}: no replica answered or none leads. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean unreachable;

        Failed(String message, boolean unreachable) {
            super(message);
            this.unreachable = unreachable;
        }
    }

    Object read(Resource r) throws Failed {
        BrokerConnection.Answer a;
        try {
            a = connection.request("GET", r.path(), null);
        } catch (BrokerException e) {
            throw new Failed(r.path() + ": " + e.getMessage(), e.status() == 503);
        }
        if (a.status() != 200) {
            throw new Failed(r.path() + ": the broker answered " + a.status() + " " + abbreviate(a.body()), false);
        }
        try {
            return parser.parse(r, a.body());
        } catch (ResourceParser.UnreadableAnswer e) {
            throw new Failed("unreadable answer: " + e.getMessage(), false);
        }
    }

    private static String abbreviate(String body) {
        String b = body == null ? "" : body.replaceAll("\\s+", " ");
        return b.length() > 200 ? b.substring(0, 200) + "…" : b;
    }
}
