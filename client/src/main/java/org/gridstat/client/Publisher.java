package org.gridstat.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;

/**
 * A UDP connection from a publishing application to its first-hop status router. It hands out one
 * {@link Publication} per status variable; all of them share this socket. Thread-safe: sends are
 * serialised on the publisher.
 *
 * <p>A send that the operating system refuses (no route, the router's port closed) does not throw:
 * it is counted in {@link #sendErrors()} and the next sample is tried as usual, because a stream
 * of periodic status values must not stop for one lost sample.
 */
public final class Publisher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Publisher.class.getName());

    private final DatagramChannel channel;
    private final InetSocketAddress router;
    private final Clock clock;
    private final ByteBuffer frame = ByteBuffer.allocateDirect(WireFormat.MAX_FRAME_LENGTH);
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();

    private Publisher(DatagramChannel channel, InetSocketAddress router, Clock clock) {
        this.channel = channel;
        this.router = router;
        this.clock = clock;
    }

    /** Opens a publisher that sends to the status router at {@code router}, timestamped by the system clock. */
    public static Publisher connect(InetSocketAddress router) {
        return connect(router, SystemClock.INSTANCE);
    }

    /** Opens a publisher whose {@link Publication#publish(double)} timestamps come from {@code clock}. */
    public static Publisher connect(InetSocketAddress router, Clock clock) {
        Objects.requireNonNull(router, "router address");
        if (router.isUnresolved()) {
            throw new IllegalArgumentException("router address " + router + " does not resolve");
        }
        try {
            DatagramChannel ch = DatagramChannel.open();
            ch.connect(router);
            return new Publisher(ch, router, clock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a UDP socket to router " + router, e);
        }
    }

    /**
     * A handle to publish one variable.
     *
     * @param latencyBound the end-to-end bound stamped on each event as an absolute deadline, or
     *                     {@code null} for events without a deadline
     */
    public Publication publication(VariableId variable, ServiceClass serviceClass, Duration latencyBound) {
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(serviceClass, "service class");
        if (!serviceClass.isSubscribable()) {
            throw new IllegalArgumentException("service class CONTROL is reserved for the middleware");
        }
        if (latencyBound != null && (latencyBound.isNegative() || latencyBound.isZero())) {
            throw new IllegalArgumentException("latency bound must be positive, got " + latencyBound);
        }
        return new Publication(this, variable, serviceClass, latencyBound == null ? 0 : latencyBound.toNanos());
    }

    Clock clock() {
        return clock;
    }

    /** Starts a frame in the publisher's buffer; the caller holds the lock until {@link #send}. */
    StatusEventEncoder begin(Publication p, long sequence, long sourceTimeNanos) {
        return encoder.wrap(frame, 0).variableId(p.variableId().value()).sequence(sequence)
                .sourceTimeNanos(sourceTimeNanos)
                .deadlineNanos(p.latencyBoundNanos() == 0 ? WireFormat.NO_DEADLINE : sourceTimeNanos + p.latencyBoundNanos())
                .serviceClass(p.serviceClass());
    }

    boolean send() {
        int length = encoder.seal();
        frame.limit(length).position(0);
        try {
            channel.write(frame);
            sent.incrementAndGet();
            return true;
        } catch (IOException e) {
            if (sendErrors.getAndIncrement() == 0) {
                LOG.log(System.Logger.Level.WARNING, "send to router " + router + " failed; counting further failures", e);
            }
            return false;
        } finally {
            frame.clear();
        }
    }

    /** Frames handed to the network. */
    public long sent() {
        return sent.get();
    }

    /** Frames the operating system refused to send. */
    public long sendErrors() {
        return sendErrors.get();
    }

    public InetSocketAddress router() {
        return router;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing publisher socket", e);
        }
    }
}
