package org.gridstat.broker.api;

import java.util.List;
import java.util.regex.Pattern;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.wire.WireFormat;

/**
 * What the management API accepts, sized to what the rest of the system carries: a name the API
 * takes fits a control-channel string (1,024 bytes) many times over, a frame fits a status event
 * datagram, and a publisher's interval is one a router can pace. Documented in
 * {@code docs/management-api.md}.
 */
public final class RequestLimits {
    /** Longest router id or link name, in characters. */
    static final int MAX_NAME_LENGTH = org.gridstat.broker.topology.Names.MAX_LENGTH;
    /** Shortest publishing interval: 100 µs, that is at most 10 kHz, far above the 120 Hz of the fastest PMUs. */
    public static final long MIN_PUBLISHER_INTERVAL_NANOS = 100_000;
    public static final long MAX_PUBLISHER_INTERVAL_NANOS = QosSpec.MAX_INTERVAL.toNanos();
    static final int MIN_FRAME_BYTES = WireFormat.HEADER_LENGTH;
    static final int MAX_FRAME_BYTES = WireFormat.MAX_FRAME_LENGTH;
    /** Longest {@code Idempotency-Key}: room for a UUID and a prefix. */
    static final int MAX_KEY_LENGTH = 128;

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_KEY_LENGTH + "}");

    private RequestLimits() {
    }

    /** Adds a problem unless {@code value} (if given) is a router id or link name the API takes. */
    static void name(String value, String field, List<String> problems) {
        if (value != null && !org.gridstat.broker.topology.Names.valid(value)) {
            problems.add(field + " must be " + org.gridstat.broker.topology.Names.rule() + ", got "
                    + shown(value));
        }
    }

    static void publisherInterval(long nanos, List<String> problems) {
        if (nanos < MIN_PUBLISHER_INTERVAL_NANOS || nanos > MAX_PUBLISHER_INTERVAL_NANOS) {
            problems.add("the publishing interval must be " + MIN_PUBLISHER_INTERVAL_NANOS + ".."
                    + MAX_PUBLISHER_INTERVAL_NANOS + " ns (at most 10 kHz, at least one sample an hour), got " + nanos + " ns");
        }
    }

    static void frameBytes(Integer bytes, List<String> problems) {
        if (bytes != null && (bytes < MIN_FRAME_BYTES || bytes > MAX_FRAME_BYTES)) {
            problems.add("frameBytes must be " + MIN_FRAME_BYTES + ".." + MAX_FRAME_BYTES + ", got " + bytes);
        }
    }

    /**
     * The key of a mutating request, or {@code null} if none was sent.
     *
     * @throws RequestParser.BadRequest if the key is malformed
     */
    static String idempotencyKey(String key) {
        if (key != null && !KEY.matcher(key).matches()) {
            throw new RequestParser.BadRequest("Idempotency-Key must be 1.." + MAX_KEY_LENGTH
                    + " letters, digits, '.', '_', ':' or '-' (a UUID, for example), got " + shown(key));
        }
        return key;
    }

    /** A value as an error quotes it: short ones whole, long ones by their length only. */
    static String shown(String value) {
        return value.length() <= MAX_NAME_LENGTH ? "'" + value + "'" : value.length() + " characters";
    }
}
