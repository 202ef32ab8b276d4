package org.gridstat.gateway.ingest;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * One device (PMU or PDC) the gateway reads, and how.
 *
 * @param name           the device's name in logs, counters and the operator views
 * @param transport      how commands and data travel
 * @param address        the device's address: where commands go (TCP connection or datagrams)
 * @param localUdp       the gateway's socket for UDP data; required for the UDP transports
 * @param idCode         the stream's IDCODE: commands name it, frames must carry it
 * @param reconnectMin   first wait before connecting again after a loss; doubles on each failure
 * @param reconnectMax   the longest wait between attempts
 * @param configTimeout  how long to wait for a CFG-2 after asking, before asking again
 * @param dataTimeout    silence (no data frame) after which the session starts over
 * @param maxFrameRate   data frames per second accepted from the device, beyond which frames are
 *                       dropped and counted (a flood from one device costs only itself); 0 derives it
 *                       from the configuration's DATA_RATE (twice it, at least 10 a second)
 * @param maxFutureNanos a frame stamped further ahead of the gateway's clock is dropped and counted
 * @param maxAgeNanos    a frame stamped further behind it is dropped and counted
 */
public record DeviceSettings(
        String name,
        DeviceTransport transport,
        InetSocketAddress address,
        InetSocketAddress localUdp,
        int idCode,
        Duration reconnectMin,
        Duration reconnectMax,
        Duration configTimeout,
        Duration dataTimeout,
        int maxFrameRate,
        long maxFutureNanos,
        long maxAgeNanos) {

    public static final Duration DEFAULT_RECONNECT_MIN = Duration.ofMillis(250);
    public static final Duration DEFAULT_RECONNECT_MAX = Duration.ofSeconds(30);
    public static final Duration DEFAULT_CONFIG_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_DATA_TIMEOUT = Duration.ofSeconds(5);
    public static final long DEFAULT_MAX_FUTURE_NANOS = 2_000_000_000L;
    public static final long DEFAULT_MAX_AGE_NANOS = 30_000_000_000L;

    public DeviceSettings {
        Objects.requireNonNull(name, "device name");
        Objects.requireNonNull(transport, "transport of device " + name);
        if (transport != DeviceTransport.SPONTANEOUS) {
            Objects.requireNonNull(address, "address of device " + name);
        }
        if (transport.udpData() && localUdp == null) {
            throw new IllegalArgumentException("device " + name + ": transport " + transport.label()
                    + " needs a local UDP address for the data");
        }
        if (idCode < 0 || idCode > 0xFFFF) {
            throw new IllegalArgumentException("device " + name + ": IDCODE is 0 to 65535, not " + idCode);
        }
        if (reconnectMin.isNegative() || reconnectMin.isZero() || reconnectMax.compareTo(reconnectMin) < 0) {
            throw new IllegalArgumentException("device " + name + ": reconnect back-off must be positive, min <= max");
        }
        if (configTimeout.isNegative() || configTimeout.isZero() || dataTimeout.isNegative() || dataTimeout.isZero()) {
            throw new IllegalArgumentException("device " + name + ": timeouts must be positive");
        }
        if (maxFrameRate < 0 || maxFutureNanos <= 0 || maxAgeNanos <= 0) {
            throw new IllegalArgumentException("device " + name + ": frame rate and time window must be positive");
        }
    }

    /** A device with the default timings. */
    public static DeviceSettings of(String name, DeviceTransport transport, InetSocketAddress address,
                                    InetSocketAddress localUdp, int idCode) {
        return new DeviceSettings(name, transport, address, localUdp, idCode, DEFAULT_RECONNECT_MIN,
                DEFAULT_RECONNECT_MAX, DEFAULT_CONFIG_TIMEOUT, DEFAULT_DATA_TIMEOUT, 0, DEFAULT_MAX_FUTURE_NANOS,
                DEFAULT_MAX_AGE_NANOS);
    }

    public DeviceSettings withTimings(Duration reconnectMin, Duration reconnectMax, Duration configTimeout,
                                      Duration dataTimeout) {
        return new DeviceSettings(name, transport, address, localUdp, idCode, reconnectMin, reconnectMax,
                configTimeout, dataTimeout, maxFrameRate, maxFutureNanos, maxAgeNanos);
    }

    public DeviceSettings withMaxFrameRate(int framesPerSecond) {
        return new DeviceSettings(name, transport, address, localUdp, idCode, reconnectMin, reconnectMax,
                configTimeout, dataTimeout, framesPerSecond, maxFutureNanos, maxAgeNanos);
    }
}
