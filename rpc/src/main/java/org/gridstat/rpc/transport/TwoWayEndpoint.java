package org.gridstat.rpc.transport;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One side of a 2WoPS connection: it publishes frames on its own variable ({@link Outlet}) and is
 * handed the frames of the peer's variable ({@link #receive}). Pure logic on the caller's thread
 * and {@link Timers}, so the simulator runs exactly what a node runs.
 *
 * <p>Sending: each try goes out as {@code copies} frames {@code spacing} apart over
 * {@code paths} paths. A message sent with acknowledgement waits
 * {@link Redundancy#timeoutNanos twice its delivery guarantee}, then is sent again, at most
 * {@code retries} times; then its delivery is {@link Delivery#UNKNOWN}.
 *
 * <p>Receiving: each try of each message is handed to the {@link Inbox} once, whatever its copies
 * (spatial and temporal redundancy's excess is dropped here, counted). A try that wants an
 * acknowledgement is acknowledged once, with the try's own redundancy, unless the inbox responds
 * from within its call: the response carries the acknowledgement. A later try of the same message
 * is handed over again: the layer above decides whether it acts twice (Ratatoskr replays).
 * Remembered tries are bounded ({@link #REMEMBERED_TRIES}); once one is forgotten a late copy
 * of it is handed over again, which the layer above must tolerate as a retry.
 */
public final class TwoWayEndpoint {
    /** Tries received that are remembered, to drop their excess copies. */
    public static final int REMEMBERED_TRIES = 4096;
    /** Messages awaiting acknowledgement at most. */
    public static final int MAX_PENDING = 1024;

    private final long connectionId;
    private final long latencyBoundNanos;
    private final Outlet outlet;
    private final Timers timers;
    private Inbox inbox;
    private final TransportFrame frame = new TransportFrame();
    private final Map<Long, Pending> pending = new HashMap<>();
    private final Map<TryKey, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TryKey, Boolean> eldest) {
            return size() > REMEMBERED_TRIES;
        }
    };
    private final EnumMap<FrameReject, Long> rejected = new EnumMap<>(FrameReject.class);
    private long nextMessageId = 1;
    private long framesSent;
    private long resends;
    private long unknown;
    private long acknowledged;
    /** The message being handed to the inbox, whose response acknowledges it; 0 outside that call. */
    private long handing;
    private boolean handingAcked;

    /**
     * @param connectionId      this side's id on the wire (nonzero, new for each session)
     * @param latencyBoundNanos the delivery bound of the subscriptions carrying this side's frames
     */
    public TwoWayEndpoint(long connectionId, long latencyBoundNanos, Outlet outlet, Timers timers, Inbox inbox) {
        if (connectionId == 0) {
            throw new IllegalArgumentException("a connection id is never 0");
        }
        if (latencyBoundNanos <= 0) {
            throw new IllegalArgumentException("the latency bound must be positive, got " + latencyBoundNanos + " ns");
        }
        this.connectionId = connectionId;
        this.latencyBoundNanos = latencyBoundNanos;
        this.outlet = Objects.requireNonNull(outlet);
        this.timers = Objects.requireNonNull(timers);
        this.inbox = inbox;
    }

    /** Sets who is handed the received messages (for a layer built after its endpoint). */
    public void inbox(Inbox inbox) {
        this.inbox = inbox;
    }

    public long connectionId() {
        return connectionId;
    }

    public long latencyBoundNanos() {
        return latencyBoundNanos;
    }

    /**
     * Sends a message; with {@code ackWanted}, {@code listener} is told how it fared, once.
     *
     * @return its message id
     * @throws IllegalArgumentException when the payload is longer than a frame carries ({@link TransportFrame#MAX_PAYLOAD})
     * @throws IllegalStateException    when {@link #MAX_PENDING} messages already await acknowledgement
     */
    public long send(byte[] payload, Redundancy r, boolean ackWanted, DeliveryListener listener) {
        // Refused before anything is remembered or acknowledged: a refused send leaves nothing behind.
        if (payload.length > TransportFrame.MAX_PAYLOAD) {
            throw new IllegalArgumentException("a 2WoPS payload is at most " + TransportFrame.MAX_PAYLOAD + " bytes, got "
                    + payload.length);
        }
        if (ackWanted && pending.size() >= MAX_PENDING) {
            throw new IllegalStateException("2WoPS connection " + Long.toHexString(connectionId) + ": " + MAX_PENDING
                    + " messages already await acknowledgement");
        }
        long acks = 0;
        if (handing != 0) { // a response from within the inbox's call: it acknowledges what is handed over
            acks = handing;
            handingAcked = true;
        }
        long id = nextMessageId++;
        Pending p = new Pending(id, payload.clone(), r, ackWanted, acks, listener == null ? DeliveryListener.NONE : listener);
        if (ackWanted) {
            pending.put(id, p);
        }
        sendTry(p);
        return id;
    }

    /** Tries of a message awaiting acknowledgement sent so far; 0 if none awaits. */
    public int tries(long messageId) {
        Pending p = pending.get(messageId);
        return p == null ? 0 : p.attempts;
    }

    /** Stops resending a message (its answer came another way); its listener is not told. */
    public void forget(long messageId) {
        Pending p = pending.remove(messageId);
        if (p != null) {
            p.cancelTimers();
        }
    }

    private void sendTry(Pending p) {
        int attempt = p.attempts++;
        p.copyTimers = new Timers.Cancellable[p.redundancy.copies()];
        sendCopy(p, attempt, 0);
        for (int c = 1; c < p.redundancy.copies(); c++) {
            int copy = c;
            p.copyTimers[c] = timers.after(c * p.redundancy.spacingNanos(), () -> sendCopy(p, attempt, copy));
        }
        if (p.ackWanted) {
            p.timeout = timers.after(p.redundancy.timeoutNanos(latencyBoundNanos), () -> timedOut(p));
        }
    }

    private void sendCopy(Pending p, int attempt, int copy) {
        byte[] out = new byte[TransportFrame.HEADER_LENGTH + p.payload.length];
        int n = TransportFrame.encode(out, FrameKind.DATA, p.ackWanted ? TransportFrame.FLAG_ACK_WANTED : 0, connectionId,
                p.id, attempt, copy, p.redundancy, p.acknowledges, p.payload, 0, p.payload.length);
        framesSent++;
        outlet.publish(p.redundancy.paths(), out, n);
    }

    private void timedOut(Pending p) {
        if (pending.get(p.id) != p) {
            return;
        }
        if (p.attempts <= p.redundancy.retries()) {
            resends++;
            sendTry(p);
        } else {
            pending.remove(p.id);
            p.cancelTimers();
            unknown++;
            p.listener.delivered(p.id, Delivery.UNKNOWN, p.attempts);
        }
    }

    /** A frame of the peer's variable arrived now; returns what became of it. */
    public FrameReject receive(byte[] bytes, int offset, int length) {
        FrameReject r = frame.decode(bytes, offset, length);
        if (r != FrameReject.NONE) {
            return count(r);
        }
        if (frame.acknowledges() != 0) {
            acknowledge(frame.acknowledges());
        }
        if (frame.kind() == FrameKind.ACK) {
            return acknowledge(frame.messageId()) ? FrameReject.NONE : count(FrameReject.STRAY_ACK);
        }
        TryKey key = new TryKey(frame.connectionId(), frame.messageId(), frame.attempt());
        if (seen.putIfAbsent(key, Boolean.TRUE) != null) {
            return count(FrameReject.DUPLICATE);
        }
        long id = frame.messageId();
        boolean wantsAck = frame.ackWanted();
        Redundancy tried = frame.redundancy();
        int attempt = frame.attempt();
        handing = id;
        handingAcked = false;
        try {
            if (inbox != null) {
                inbox.received(new Handed(frame, tried));
            }
        } finally {
            handing = 0;
        }
        if (wantsAck && !handingAcked) {
            sendAck(id, attempt, tried);
        }
        return FrameReject.NONE;
    }

    private void sendAck(long messageId, int attempt, Redundancy tried) {
        for (int c = 0; c < tried.copies(); c++) {
            int copy = c;
            Runnable send = () -> {
                byte[] out = new byte[TransportFrame.HEADER_LENGTH];
                int n = TransportFrame.encode(out, FrameKind.ACK, 0, connectionId, messageId, attempt, copy, tried, 0,
                        out, 0, 0);
                framesSent++;
                outlet.publish(tried.paths(), out, n);
            };
            if (c == 0) {
                send.run();
            } else {
                timers.after(c * tried.spacingNanos(), send);
            }
        }
    }

    private boolean acknowledge(long messageId) {
        Pending p = pending.remove(messageId);
        if (p == null) {
            return false;
        }
        p.cancelTimers();
        acknowledged++;
        p.listener.delivered(p.id, Delivery.ACKNOWLEDGED, p.attempts);
        return true;
    }

    private FrameReject count(FrameReject r) {
        rejected.merge(r, 1L, Long::sum);
        return r;
    }

    /** Frames dropped for {@code reason} (copies of a try already delivered among them). */
    public long rejected(FrameReject reason) {
        return rejected.getOrDefault(reason, 0L);
    }

    public long framesSent() {
        return framesSent;
    }

    /** Tries sent again after a timeout. */
    public long resends() {
        return resends;
    }

    /** Messages whose every try timed out. */
    public long unknownDeliveries() {
        return unknown;
    }

    public long acknowledgedMessages() {
        return acknowledged;
    }

    /** Messages awaiting acknowledgement now. */
    public int pending() {
        return pending.size();
    }

    private record TryKey(long connectionId, long messageId, int attempt) {
    }

    private static final class Pending {
        final long id;
        final byte[] payload;
        final Redundancy redundancy;
        final boolean ackWanted;
        final long acknowledges;
        final DeliveryListener listener;
        int attempts;
        Timers.Cancellable timeout;
        Timers.Cancellable[] copyTimers;

        Pending(long id, byte[] payload, Redundancy redundancy, boolean ackWanted, long acknowledges,
                DeliveryListener listener) {
            this.id = id;
            this.payload = payload;
            this.redundancy = redundancy;
            this.ackWanted = ackWanted;
            this.acknowledges = acknowledges;
            this.listener = listener;
        }

        /** Calls off the resend and the copies not sent yet: once acknowledged, more copies only load the network. */
        void cancelTimers() {
            if (timeout != null) {
                timeout.cancel();
            }
            if (copyTimers != null) {
                for (Timers.Cancellable c : copyTimers) {
                    if (c != null) {
                        c.cancel();
                    }
                }
            }
        }
    }

    /** The frame being handed over, as the inbox sees it. */
    private static final class Handed implements Inbound {
        private final TransportFrame f;
        private final Redundancy tried;

        Handed(TransportFrame f, Redundancy tried) {
            this.f = f;
            this.tried = tried;
        }

        @Override
        public long connectionId() {
            return f.connectionId();
        }

        @Override
        public long messageId() {
            return f.messageId();
        }

        @Override
        public int attempt() {
            return f.attempt();
        }

        @Override
        public Redundancy redundancy() {
            return tried;
        }

        @Override
        public byte[] bytes() {
            return f.bytes();
        }

        @Override
        public int payloadOffset() {
            return f.payloadOffset();
        }

        @Override
        public int payloadLength() {
            return f.payloadLength();
        }
    }
}
