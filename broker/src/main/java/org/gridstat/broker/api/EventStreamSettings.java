package org.gridstat.broker.api;

/**
 * How the management API's event stream ({@code GET /api/v1/events}) runs and what bounds it.
 *
 * @param pulseNanos           how often each stream is sent what changed since it was last sent
 *                             (default 250 ms): the coalescing period, so a resource that changes
 *                             a thousand times a second costs a stream at most one event a pulse
 * @param keepaliveNanos       a stream sent nothing for this long gets a {@code : keepalive}
 *                             comment (default 5 s), so a client notices a dead broker from the
 *                             silence (it waits three of these)
 * @param maxStreams           event streams open at once (default 16); the next is answered 503.
 *                             Each stream costs a view of the five resources per pulse only when
 *                             they change, but its socket buffers and its place are held for hours
 * @param unwritableCloseNanos a stream whose connection takes nothing for longer than this is closed
 *                             (default 10 s): a client that stopped reading holds no more than what
 *                             fills its socket buffers, and its place is freed
 */
public record EventStreamSettings(long pulseNanos, long keepaliveNanos, int maxStreams, long unwritableCloseNanos) {
    public static final long DEFAULT_PULSE_NANOS = 250_000_000L;
    public static final long DEFAULT_KEEPALIVE_NANOS = 5_000_000_000L;
    public static final int DEFAULT_MAX_STREAMS = 16;
    public static final long DEFAULT_UNWRITABLE_CLOSE_NANOS = 10_000_000_000L;
    /** A pulse shorter than this would only spend the broker's CPU on views no console can show. */
    public static final long MIN_PULSE_NANOS = 1_000_000L;
    public static final EventStreamSettings DEFAULT = new EventStreamSettings(DEFAULT_PULSE_NANOS, DEFAULT_KEEPALIVE_NANOS,
            DEFAULT_MAX_STREAMS, DEFAULT_UNWRITABLE_CLOSE_NANOS);

    public EventStreamSettings {
        if (pulseNanos < MIN_PULSE_NANOS) {
            throw new IllegalArgumentException("event pulse must be at least 1 ms, got " + pulseNanos + " ns");
        }
        if (keepaliveNanos < pulseNanos) {
            throw new IllegalArgumentException("event keepalive (" + keepaliveNanos + " ns) must not be shorter than the pulse ("
                    + pulseNanos + " ns) that sends it");
        }
        if (maxStreams < 1) {
            throw new IllegalArgumentException("event stream cap must be positive, got " + maxStreams);
        }
        if (unwritableCloseNanos < pulseNanos) {
            throw new IllegalArgumentException("an unwritable event stream's limit (" + unwritableCloseNanos
                    + " ns) must not be shorter than the pulse (" + pulseNanos + " ns) that checks it");
        }
    }
}
