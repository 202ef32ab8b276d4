package org.gridstat.gateway.egress;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.gridstat.core.model.VariableName;

/**
 * One C37.118 stream the subscriber-side gateway serves downstream.
 *
 * @param name          the stream's name in logs and views
 * @param idCode        the stream's IDCODE (its data and configuration frames carry it; commands must name it)
 * @param pmuVariables  the sample variables whose PMUs the stream carries, in its PMU order; each
 *                      variable's description ({@code VARIABLE/description}) tells its PMU's configuration
 * @param waitWindow    how long a timestamp waits for its missing PMUs after its first sample came
 * @param maxPending    timestamps held at most while they wait
 * @param dataRate      the DATA_RATE the stream's configuration announces: the rate it is subscribed
 *                      at, when that is below the PMUs' own; 0 takes the first PMU's
 */
public record EgressSettings(String name, int idCode, List<String> pmuVariables, Duration waitWindow, int maxPending,
                             int dataRate) {
    public static final Duration DEFAULT_WAIT_WINDOW = Duration.ofMillis(50);
    public static final int DEFAULT_MAX_PENDING = 64;

    public EgressSettings {
        Objects.requireNonNull(name, "stream name");
        pmuVariables = List.copyOf(pmuVariables);
        if (pmuVariables.isEmpty()) {
            throw new IllegalArgumentException("stream " + name + " names no PMU variable");
        }
        if (pmuVariables.stream().distinct().count() != pmuVariables.size()) {
            throw new IllegalArgumentException("stream " + name + " names a PMU variable twice");
        }
        pmuVariables.forEach(VariableName::of);
        if (idCode < 0 || idCode > 0xFFFF) {
            throw new IllegalArgumentException("stream " + name + ": IDCODE is 0 to 65535, not " + idCode);
        }
        if (waitWindow.isNegative() || waitWindow.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("stream " + name + ": the wait window is 0 to 10 s, not " + waitWindow);
        }
        if (dataRate < -32768 || dataRate > 32767) {
            throw new IllegalArgumentException("stream " + name + ": DATA_RATE is 16 bits signed, not " + dataRate);
        }
        if (maxPending < 1 || maxPending > 4096) {
            throw new IllegalArgumentException("stream " + name + ": 1 to 4096 pending timestamps, not " + maxPending);
        }
    }

    public static EgressSettings of(String name, int idCode, List<String> pmuVariables) {
        return new EgressSettings(name, idCode, pmuVariables, DEFAULT_WAIT_WINDOW, DEFAULT_MAX_PENDING, 0);
    }

    /**
     * The DATA_RATE of a rate in frames per second: the rate rounded when it is 1 or more, else the
     * seconds per frame, negative (0.5 Hz is -2).
     */
    public static int dataRateOf(double hz) {
        if (!(hz > 0) || hz > Short.MAX_VALUE) {
            throw new IllegalArgumentException("a rate above 0 and at most 32767 frames a second, not " + hz);
        }
        return hz >= 1 ? (int) Math.round(hz) : (int) -Math.min(Short.MAX_VALUE + 1, Math.round(1 / hz));
    }

    public EgressSettings withWaitWindow(Duration window) {
        return new EgressSettings(name, idCode, pmuVariables, window, maxPending, dataRate);
    }

    public EgressSettings withDataRate(int rate) {
        return new EgressSettings(name, idCode, pmuVariables, waitWindow, maxPending, rate);
    }
}
