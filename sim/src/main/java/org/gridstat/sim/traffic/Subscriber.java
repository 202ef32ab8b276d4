package org.gridstat.sim.traffic;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.client.SequenceWindow;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.net.SimDatagram;

/**
 * The subscribers at the end of one delivery link: each datagram is walked and each event decoded
 * with core's codec, and each subscription to its variable is given the first copy of every sample
 * (the client API's own {@link SequenceWindow} tells copies from new samples), with its latency
 * against its deadline. Applications {@link #listen} to a variable's payloads the same way, each
 * with its own window.
 */
public final class Subscriber {
    /** What one subscription is told. */
    public interface Delivery {
        /**
         * A sample delivered for the first time.
         *
         * @param latencyNanos the subscriber's epoch clock at arrival less the sample's source time
         * @param late         whether it arrived after its deadline (the subscription's bound)
         */
        void delivered(long sequence, long sourceTimeNanos, long latencyNanos, boolean late);

        /** The subscription's latency bound, to judge a delivery late by. */
        long latencyBoundNanos();
    }

    private final EventLoop loop;
    private final long epochBaseNanos;
    private final DatagramReader reader = new DatagramReader();
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final Map<Long, List<Delivery>> byVariable = new HashMap<>();
    private final Map<Delivery, SequenceWindow> windows = new HashMap<>();
    private final Map<Long, List<Listening>> listeners = new HashMap<>();
    private long duplicates;
    private long invalid;
    private long unwanted;

    public Subscriber(EventLoop loop, long epochBaseNanos) {
        this.loop = loop;
        this.epochBaseNanos = epochBaseNanos;
    }

    public void add(long variableId, Delivery d) {
        byVariable.computeIfAbsent(variableId, v -> new java.util.ArrayList<>()).add(d);
        windows.put(d, new SequenceWindow());
    }

    public void remove(long variableId, Delivery d) {
        List<Delivery> l = byVariable.get(variableId);
        if (l != null) {
            l.remove(d);
        }
        windows.remove(d);
    }

    /**
     * Hands {@code listener} every sample of {@code variableId} arriving from now on, each once:
     * its own window drops the copies from other paths, as a subscribing application's does.
     */
    public void listen(long variableId, PayloadListener listener) {
        listeners.computeIfAbsent(variableId, v -> new java.util.ArrayList<>()).add(new Listening(listener));
    }

    private record Listening(PayloadListener listener, SequenceWindow window) {
        Listening(PayloadListener listener) {
            this(listener, new SequenceWindow());
        }
    }

    /** A datagram arrives now. */
    public void receive(SimDatagram d) {
        if (d.bytes() == null) {
            unwanted++;
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(d.bytes());
        if (reader.open(buffer, 0, d.length()) != RejectReason.NONE) {
            invalid++;
            return;
        }
        long epochNow = epochBaseNanos + loop.now();
        while (reader.next()) {
            if (decoder.wrap(buffer, reader.eventOffset(), reader.eventLength()) != RejectReason.NONE) {
                invalid++;
                continue;
            }
            List<Delivery> l = byVariable.get(decoder.variableId());
            List<Listening> apps = listeners.get(decoder.variableId());
            if ((l == null || l.isEmpty()) && apps == null) {
                unwanted++;
                continue;
            }
            long sequence = decoder.sequence();
            long sourceTime = decoder.sourceTimeNanos();
            long latency = epochNow - sourceTime;
            if (l != null) {
                for (Delivery s : l) {
                    if (first(windows.get(s), sequence, sourceTime)) {
                        s.delivered(sequence, sourceTime, latency, latency > s.latencyBoundNanos());
                    }
                }
            }
            if (apps != null) {
                // the decoder's buffer wraps the datagram's own array: its offsets are the array's
                for (Listening a : apps) {
                    if (first(a.window(), sequence, sourceTime)) {
                        a.listener().received(sequence, sourceTime, d.bytes(), decoder.payloadOffset(),
                                decoder.payloadLength());
                    }
                }
            }
        }
    }

    private boolean first(SequenceWindow w, long sequence, long sourceTime) {
        SequenceWindow.Verdict v = w.accept(sequence, sourceTime);
        if (v == SequenceWindow.Verdict.NEW || v == SequenceWindow.Verdict.LATE_FILL) {
            return true;
        }
        duplicates++;
        return false;
    }

    /** Copies of samples already delivered (from another path), over all subscriptions and listeners. */
    public long duplicates() {
        return duplicates;
    }

    public long invalid() {
        return invalid;
    }

    /** Events of variables nobody here subscribes to (any more). */
    public long unwanted() {
        return unwanted;
    }
}
