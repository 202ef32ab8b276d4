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
 * serialised on the publisher. Given the router's priority port as well, HRT and LRT samples go
 * there, so a best-effort flood queued at the router's data port cannot hold them back.
 *
 * <p>A send that the operating system refuses (no route, the router's port closed) does not throw:
 * it is counted in {@link #sendErrors()} and the next sample is tried as usual, because a stream
 * of periodic status values must not stop for one lost sample.
 */
public final class Publisher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Publisher.class.getName());

    private final DatagramChannel channel;
    /** To the router's priority port, for HRT and LRT; {@code null} if it has none. */
    private final DatagramChannel priorityChannel;
    private boolean toPriority;
    private final InetSocketAddress router;
    private final Clock clock;
    private final ByteBuffer frame = ByteBuffer.allocateDirect(WireFormat.MAX_FRAME_LENGTH);
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();

    private Publisher(DatagramChannel channel, DatagramChannel priorityChannel, InetSocketAddress router, Clock clock) {
        this.channel = channel;
        this.priorityChannel = priorityChannel;
        this.router = router;
        this.clock = clock;
    }

    /** Opens a publisher that sends to the status router at {@code router}, timestamped by the system clock. */
    public static Publisher connect(InetSocketAddress router) {
        return connect(router, SystemClock.INSTANCE);
    }

    /** Opens a publisher that sends HRT and LRT samples to the router's {@code priorityPort}, timestamped by the system clock. */
    public static Publisher connect(InetSocketAddress router, InetSocketAddress priorityPort) {
        return connect(router, priorityPort, SystemClock.INSTANCE);
    }

    /** Opens a publisher whose {@link Publication#publish(double)} timestamps come from {@code clock}. */
    public static Publisher connect(InetSocketAddress router, Clock clock) {
        return connect(router, null, clock);
    }

    /**
     * Opens a publisher that sends HRT and LRT samples to the router's {@code priorityPort} and
     * best effort to {@code router}.
     *
     * @param priorityPort the router's priority data port, or {@code null} to send everything to {@code router}
     */
    public static Publisher connect(InetSocketAddress router, InetSocketAddress priorityPort, Clock clock) {
        Objects.requireNonNull(router, "router address");
        if (router.isUnresolved()) {
            throw new IllegalArgumentException("router address " + router + " does not resolve");
        }
        if (priorityPort != null && priorityPort.isUnresolved()) {
            throw new IllegalArgumentException("router priority port " + priorityPort + " does not resolve");
        }
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open();
            ch.connect(router);
            DatagramChannel priority = null;
            if (priorityPort != null) {
                priority = DatagramChannel.open();
                try {
                    priority.connect(priorityPort);
                } catch (IOException e) {
                    priority.close();
                    throw e;
                }
            }
            return new Publisher(ch, priority, router, clock);
        } catch (IOException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
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
        toPriority = priorityChannel != null && p.serviceClass() != ServiceClass.BE;
        return encoder.wrap(frame, 0).variableId(p.variableId().value()).sequence(sequence)
                .sourceTimeNanos(sourceTimeNanos)
                .deadlineNanos(p.latencyBoundNanos() == 0 ? WireFormat.NO_DEADLINE : sourceTimeNanos + p.latencyBoundNanos())
                .serviceClass(p.serviceClass());
    }

    boolean send() {
        int length = encoder.seal();
        frame.limit(length).position(0);
        try {
            (toPriority ? priorityChannel : channel).write(frame);
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
        for (DatagramChannel ch : new DatagramChannel[] {channel, priorityChannel}) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "closing publisher socket", e);
            }
        }
    }
}
