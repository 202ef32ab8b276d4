package org.gridstat.gui.feed;

/**
 * How fresh the console's picture of the broker is. {@code LIVE}: the last round of answers came
 * in time. {@code STALE}: the broker answered late, wrongly or not at all; what was last received
 * is kept and shown as of {@code lastGoodMillis}. {@code RECONNECTING}: no replica could be
 * reached or none leads; the feed keeps trying them, the last known state still shown.
 *
 * @param lastGoodMillis when the last complete, good data came (0: never)
 * @param broker         the replica asked last
 * @param detail         why it is not live, for the operator ("" when live)
 */
public record ConnectionState(Kind kind, long lastGoodMillis, String broker, String detail) {
    public enum Kind { LIVE, STALE, RECONNECTING }

    public static ConnectionState connecting(String broker) {
        return new ConnectionState(Kind.RECONNECTING, 0, broker, "connecting");
    }
}
