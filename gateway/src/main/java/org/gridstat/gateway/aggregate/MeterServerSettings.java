package org.gridstat.gateway.aggregate;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the meter server listens.
 *
 * @param listen the TCP address meters connect to (port 0: any free port)
 * @param maxConnections connections open at once; one beyond is closed at once, counted
 * @param readingsPerSecond each connection's sustained allowance of records; a connection over it
 *        is paused (reading off) until the allowance refills, so TCP pushes back on the meter
 * @param burst records a connection may send at once above its rate
 * @param readBufferBytes the most bytes read from a connection at a time, and so the most held for
 *        a paused one; at least one record
 * @param socketBufferBytes the kernel receive buffer asked for each connection (SO_RCVBUF): small,
 *        so a paused meter feels the back-pressure soon
 * @param maxGarbageBytes a connection that has sent more bytes than this outside records is closed
 * @param helloTimeout a connection must say hello within this
 * @param idleTimeout a connection that sends nothing for this long is closed (paused ones excepted)
 * @param aheadWindow a reading stamped more than this ahead of the gateway's clock is refused
 * @param behindWindow a reading stamped more than this behind the gateway's clock is refused
 * @param ioThreads Netty event loops serving the connections
 * @param aggregator how readings are folded
 */
public record MeterServerSettings(
        InetSocketAddress listen,
        int maxConnections,
        int readingsPerSecond,
        int burst,
        int readBufferBytes,
        int socketBufferBytes,
        int maxGarbageBytes,
        Duration helloTimeout,
        Duration idleTimeout,
        Duration aheadWindow,
        Duration behindWindow,
        int ioThreads,
        AggregatorSettings aggregator) {

    public static final int DEFAULT_MAX_CONNECTIONS = 20_000;
    public static final int DEFAULT_READINGS_PER_SECOND = 10;
    public static final int DEFAULT_BURST = 20;
    public static final int DEFAULT_READ_BUFFER_BYTES = 512;
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 8_192;
    public static final int DEFAULT_MAX_GARBAGE_BYTES = 1_024;
    public static final Duration DEFAULT_HELLO_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_AHEAD_WINDOW = Duration.ofSeconds(2);
    public static final Duration DEFAULT_BEHIND_WINDOW = Duration.ofSeconds(60);
    public static final int DEFAULT_IO_THREADS = 1;

    public MeterServerSettings {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(helloTimeout, "helloTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(aheadWindow, "aheadWindow");
        Objects.requireNonNull(behindWindow, "behindWindow");
        Objects.requireNonNull(aggregator, "aggregator");
        if (maxConnections < 1 || readingsPerSecond < 1 || burst < 1 || ioThreads < 1 || maxGarbageBytes < 0) {
            throw new IllegalArgumentException("maxConnections, readingsPerSecond, burst and ioThreads must be at least 1,"
                    + " maxGarbageBytes at least 0");
        }
        if (readBufferBytes < MeterFormat.LONGEST_RECORD || readBufferBytes > 65_536) {
            throw new IllegalArgumentException("readBufferBytes must be " + MeterFormat.LONGEST_RECORD + " to 65536: "
                    + readBufferBytes);
        }
        if (socketBufferBytes < 1_024) {
            throw new IllegalArgumentException("socketBufferBytes must be at least 1024: " + socketBufferBytes);
        }
        for (Duration d : new Duration[] {helloTimeout, idleTimeout}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("helloTimeout and idleTimeout must be positive");
            }
        }
        if (aheadWindow.isNegative() || behindWindow.isNegative()) {
            throw new IllegalArgumentException("the time window's sides must not be negative");
        }
    }

    /** The defaults at this address. */
    public static MeterServerSettings at(InetSocketAddress listen) {
        return new MeterServerSettings(listen, DEFAULT_MAX_CONNECTIONS, DEFAULT_READINGS_PER_SECOND, DEFAULT_BURST,
                DEFAULT_READ_BUFFER_BYTES, DEFAULT_SOCKET_BUFFER_BYTES, DEFAULT_MAX_GARBAGE_BYTES, DEFAULT_HELLO_TIMEOUT,
                DEFAULT_IDLE_TIMEOUT, DEFAULT_AHEAD_WINDOW, DEFAULT_BEHIND_WINDOW, DEFAULT_IO_THREADS,
                AggregatorSettings.defaults());
    }

    public MeterServerSettings withMaxConnections(int n) {
        return new MeterServerSettings(listen, n, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, aheadWindow, behindWindow, ioThreads, aggregator);
    }

    public MeterServerSettings withRate(int perSecond, int burstRecords) {
        return new MeterServerSettings(listen, maxConnections, perSecond, burstRecords, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, aheadWindow, behindWindow, ioThreads, aggregator);
    }

    public MeterServerSettings withReadBufferBytes(int n) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, n, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, aheadWindow, behindWindow, ioThreads, aggregator);
    }

    public MeterServerSettings withMaxGarbageBytes(int n) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                n, helloTimeout, idleTimeout, aheadWindow, behindWindow, ioThreads, aggregator);
    }

    public MeterServerSettings withTimeouts(Duration hello, Duration idle) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, hello, idle, aheadWindow, behindWindow, ioThreads, aggregator);
    }

    public MeterServerSettings withWindow(Duration ahead, Duration behind) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, ahead, behind, ioThreads, aggregator);
    }

    public MeterServerSettings withIoThreads(int n) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, aheadWindow, behindWindow, n, aggregator);
    }

    public MeterServerSettings withAggregator(AggregatorSettings a) {
        return new MeterServerSettings(listen, maxConnections, readingsPerSecond, burst, readBufferBytes, socketBufferBytes,
                maxGarbageBytes, helloTimeout, idleTimeout, aheadWindow, behindWindow, ioThreads, a);
    }
}
