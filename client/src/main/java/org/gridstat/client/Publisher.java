package org.gridstat.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;

/**
 * A UDP connection from a publishing application to its first-hop status router. It hands out one
 * {@link Publication} per status variable; all of them share this socket. Thread-safe: sends are
 * serialised on the publisher. Given the router's priority port as well, HRT and LRT samples go
 * there, so a best-effort flood queued at the router's data port cannot hold them back.
 *
 * <p>Samples published inside {@link #publishTogether} leave together when it returns, packed into
 * as few datagrams as fit ({@link #maxDatagramBytes(int)}, 1,472 bytes by default): a gateway or a
 * multi-channel PMU publishes a whole measurement set with one system call per datagram, and
 * nothing waits for more samples to come.
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
    private final BatchHeaderWriter batchHeader = new BatchHeaderWriter();
    /** While {@link #publishTogether} runs: the frames held for each lane (data port, priority port). */
    private final PendingDatagram[] pending = new PendingDatagram[2];
    private ByteBuffer datagram;
    private int maxDatagram = WireFormat.MAX_FRAME_LENGTH;
    private boolean together;

    /** Frames held for one socket while samples are published together. */
    private static final class PendingDatagram {
        final ByteBuffer frames = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH);
        final int[] lengths = new int[WireFormat.MAX_BATCH_EVENTS];
        int count;
    }
    private final AtomicLong sendErrors = new AtomicLong();
    /** Publications by variable id, for congestion notices. */
    private final Map<Long, List<Publication>> publications = new java.util.HashMap<>();
    private NoticeClient notices;
    private CongestionAdviceListener adviceListener;

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
        return publication(variable, serviceClass, latencyBound, null);
    }

    /**
     * A handle to publish one variable that publishes every {@code interval}: its half is the
     * tolerance a congestion hold gives a sample's stamp, as the routers' rate filters do.
     *
     * @param interval the publication's own interval, or {@code null} if it has none
     */
    public Publication publication(VariableId variable, ServiceClass serviceClass, Duration latencyBound, Duration interval) {
        Objects.requireNonNull(variable, "variable");
        if (interval != null && (interval.isNegative() || interval.isZero())) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        Objects.requireNonNull(serviceClass, "service class");
        if (!serviceClass.isSubscribable()) {
            throw new IllegalArgumentException("service class CONTROL is reserved for the middleware");
        }
        if (latencyBound != null && (latencyBound.isNegative() || latencyBound.isZero())) {
            throw new IllegalArgumentException("latency bound must be positive, got " + latencyBound);
        }
        Publication p = new Publication(this, variable, serviceClass, latencyBound == null ? 0 : latencyBound.toNanos(),
                interval == null ? 0 : interval.toNanos());
        synchronized (publications) {
            publications.computeIfAbsent(variable.value(), v -> new java.util.ArrayList<>()).add(p);
            if (notices != null && serviceClass != ServiceClass.HRT) {
                notices.publishes(variable.value());
            }
        }
        return p;
    }

    /**
     * Takes congestion notices from the first router (TCP to its data address): its best-effort and
     * LRT publications are held to the rate it advises, and {@code listener} is told of each change.
     * HRT publications are never held. Call once, before or after making publications.
     */
    public void congestionNotices(CongestionAdviceListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (publications) {
            if (notices != null) {
                throw new IllegalStateException("congestion notices are on already");
            }
            adviceListener = listener;
            notices = new NoticeClient(router, this::advised, this::noticesLost);
            publications.forEach((variable, list) -> {
                if (list.stream().anyMatch(p -> p.serviceClass() != ServiceClass.HRT)) {
                    notices.publishes(variable);
                }
            });
        }
    }

    private void advised(ControlMessage.CongestionNotice n) {
        List<Publication> list;
        synchronized (publications) {
            list = List.copyOf(publications.getOrDefault(n.variableId(), List.of()));
        }
        boolean changed = false;
        for (Publication p : list) {
            changed |= p.advise(n.rateHz());
        }
        if (changed) {
            adviceListener.advised(VariableId.of(n.variableId()), n.rateHz());
        }
    }

    /** The router's connection is lost: its holds go with it (it sends them again when it is back). */
    private void noticesLost() {
        Map<Long, List<Publication>> all;
        synchronized (publications) {
            all = Map.copyOf(publications);
        }
        all.forEach((variable, list) -> {
            boolean changed = false;
            for (Publication p : list) {
                changed |= p.advise(0);
            }
            if (changed) {
                adviceListener.advised(VariableId.of(variable), 0);
            }
        });
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
        if (together) {
            hold(toPriority ? 1 : 0, length);
            return true;
        }
        frame.limit(length).position(0);
        try {
            return write(toPriority ? priorityChannel : channel, frame, 1);
        } finally {
            frame.clear();
        }
    }

    /** Adds the sealed frame of {@code length} bytes to its lane's datagram, sending that first if it is full. */
    private void hold(int lane, int length) {
        if (pending[lane] == null) { // made on first use: a publisher that never batches holds no batch buffers
            pending[lane] = new PendingDatagram();
            if (datagram == null) {
                datagram = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH);
            }
        }
        PendingDatagram p = pending[lane];
        if (p.count > 0 && (p.count == p.lengths.length
                || BatchHeaderWriter.headerLength(p.count + 1) + p.frames.position() + length > maxDatagram)) {
            sendPending(lane);
        }
        p.frames.put(p.frames.position(), frame, 0, length);
        p.frames.position(p.frames.position() + length);
        p.lengths[p.count++] = length;
    }

    /** Sends a lane's held frames: one as it is, several as a batch. */
    private void sendPending(int lane) {
        PendingDatagram p = pending[lane];
        if (p == null || p.count == 0) {
            return;
        }
        int n = p.count;
        p.count = 0;
        datagram.clear();
        int at = n > 1 ? batchHeader.write(datagram, 0, p.lengths, n) : 0;
        datagram.put(at, p.frames, 0, p.frames.position());
        datagram.limit(at + p.frames.position()).position(0);
        p.frames.clear();
        write(lane == 1 ? priorityChannel : channel, datagram, n);
    }

    private boolean write(DatagramChannel ch, ByteBuffer bytes, int frames) {
        try {
            ch.write(bytes);
            sent.addAndGet(frames);
            return true;
        } catch (IOException e) {
            if (sendErrors.getAndAdd(frames) == 0) {
                LOG.log(System.Logger.Level.WARNING, "send to router " + router + " failed; counting further failures", e);
            }
            return false;
        }
    }

    /**
     * Runs {@code samples}, which publishes through this publisher's publications, and sends what
     * it published together when it returns (or throws): packed into as few datagrams as
     * {@link #maxDatagramBytes(int)} allows, HRT and LRT apart from best effort when the router's
     * priority port is used. Inside, {@code publish} returns {@code true} for a sample held;
     * whether its datagram was sent shows in {@link #sent()} and {@link #sendErrors()}. Other
     * threads' samples wait for it to return. May be nested; the outermost sends.
     */
    public void publishTogether(Runnable samples) {
        Objects.requireNonNull(samples, "samples");
        synchronized (this) {
            if (together) {
                samples.run();
                return;
            }
            together = true;
            try {
                samples.run();
            } finally {
                together = false;
                sendPending(1);
                sendPending(0);
            }
        }
    }

    /**
     * Sets the largest datagram {@link #publishTogether} sends: {@value WireFormat#MAX_FRAME_LENGTH}
     * (the default: an Ethernet MTU, never fragmented) to {@value WireFormat#MAX_DATAGRAM_LENGTH}
     * (the largest UDP datagram, for a router on the same host or a jumbo-frame network).
     */
    public synchronized void maxDatagramBytes(int bytes) {
        if (bytes < WireFormat.MAX_FRAME_LENGTH || bytes > WireFormat.MAX_DATAGRAM_LENGTH) {
            throw new IllegalArgumentException("a datagram may be " + WireFormat.MAX_FRAME_LENGTH + ".."
                    + WireFormat.MAX_DATAGRAM_LENGTH + " bytes, got " + bytes);
        }
        if (bytes < maxDatagram) { // what is held was packed for the larger size
            sendPending(1);
            sendPending(0);
        }
        maxDatagram = bytes;
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
        synchronized (publications) {
            if (notices != null) {
                notices.close();
            }
        }
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
