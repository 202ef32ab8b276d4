package org.gridstat.gateway.shaping;

import org.gridstat.core.queue.FragmentQueue;
import org.gridstat.core.sched.TokenBucket;
import org.gridstat.core.wire.WireFormat;

/**
 * Shapes one flow at its source: a token bucket at the flow's reservation paces the samples into
 * the network, so a burst (jitter, a PDC flushing its backlog, a device sending faster than it
 * declared) leaves at the rate the broker reserved instead of overrunning the first link. What
 * waits for tokens waits in a datagram-aware queue ({@link FragmentQueue.Policy#DATAGRAM_AWARE}):
 * a sample that needs several IP packets is queued whole or dropped whole, so the network never
 * carries fragments of a datagram that cannot be reassembled. Each sample is charged its bytes on
 * the wire: the status event, its UDP header and an IP header per packet, as the broker reserves.
 *
 * <p>Pure and single-threaded on the caller's monotonic clock: the caller offers samples, sends
 * those it is told to, and calls {@link #drain} at {@link #nextDeparture}. Storage is
 * preallocated: as many sample slots as the queue has packets.
 */
public final class SourceShaper {
    /** What became of an offered sample. */
    public enum Outcome {
        /** It may leave now: the caller sends it. */
        SEND,
        /** It waits for tokens; {@link #drain} hands it over later. */
        QUEUED,
        /** No room for all its packets: dropped whole. */
        DROPPED
    }

    /** Takes the samples that may leave. */
    @FunctionalInterface
    public interface Sender {
        void send(byte[] payload, int length, long sourceTimeNanos);
    }

    private static final int IP_HEADER = 20;
    private static final int UDP_HEADER = 8;

    private final TokenBucket bucket;
    private final int mtu;
    private final FragmentQueue<Slot> queue;
    private final Slot[] slots;
    private int nextSlot;
    private long sent;
    private long queued;
    private long dropped;

    /** A queued sample's bytes and time. */
    private static final class Slot {
        final byte[] payload = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
        int length;
        long time;
        boolean used;
    }

    /**
     * @param rateBytesPerSecond the flow's reservation, bytes on the wire per second
     * @param frameBytes         the flow's largest status event (header and payload), for the burst
     */
    public SourceShaper(long rateBytesPerSecond, int frameBytes, ShapingSettings settings, long now) {
        this.mtu = settings.mtu();
        long burst = (long) settings.burstFrames() * wireBytes(frameBytes, settings.mtu());
        this.bucket = new TokenBucket(rateBytesPerSecond, burst, now);
        this.queue = new FragmentQueue<>(settings.queuePackets(), FragmentQueue.Policy.DATAGRAM_AWARE);
        this.slots = new Slot[settings.queuePackets()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot();
        }
    }

    /** IP packets a status event of {@code frameBytes} needs on a path of this MTU. */
    public static int packets(int frameBytes, int mtu) {
        int perPacket = mtu - IP_HEADER;
        return (frameBytes + UDP_HEADER + perPacket - 1) / perPacket;
    }

    /** Bytes a status event of {@code frameBytes} takes on the wire: UDP header, an IP header per packet. */
    public static int wireBytes(int frameBytes, int mtu) {
        return frameBytes + UDP_HEADER + IP_HEADER * packets(frameBytes, mtu);
    }

    /**
     * Offers a sample of {@code length} payload bytes. {@link Outcome#SEND}: the caller sends it
     * now (it is charged); QUEUED: copied, handed to {@link #drain}'s sender when its turn comes.
     */
    public Outcome offer(byte[] payload, int length, long sourceTimeNanos, long now) {
        int frame = WireFormat.HEADER_LENGTH + length;
        bucket.advance(now);
        if (queue.isEmpty() && !bucket.inDebt()) {
            bucket.charge(wireBytes(frame, mtu));
            sent++;
            return Outcome.SEND;
        }
        Slot slot = freeSlot();
        if (slot == null || queue.offer(slot, packets(frame, mtu)) == 0) {
            dropped++;
            return Outcome.DROPPED;
        }
        System.arraycopy(payload, 0, slot.payload, 0, length);
        slot.length = length;
        slot.time = sourceTimeNanos;
        slot.used = true;
        queued++;
        return Outcome.QUEUED;
    }

    /** Hands over, in order, the queued samples whose tokens have come by {@code now}. */
    public void drain(long now, Sender sender) {
        bucket.advance(now);
        while (!queue.isEmpty() && !bucket.inDebt()) {
            Slot slot = queue.headDatagram();
            int fragments = queue.headFragments();
            for (int i = 0; i < fragments; i++) {
                queue.remove();
            }
            bucket.charge(wireBytes(WireFormat.HEADER_LENGTH + slot.length, mtu));
            slot.used = false;
            sent++;
            sender.send(slot.payload, slot.length, slot.time);
        }
    }

    /** When {@link #drain} has something to hand over: a monotonic time, or {@link Long#MAX_VALUE} if nothing waits. */
    public long nextDeparture() {
        return queue.isEmpty() ? Long.MAX_VALUE : bucket.readyTime();
    }

    /** Samples waiting. */
    public int waiting() {
        int n = 0;
        for (Slot s : slots) {
            n += s.used ? 1 : 0;
        }
        return n;
    }

    public long sent() {
        return sent;
    }

    /** Samples that had to wait for tokens. */
    public long delayed() {
        return queued;
    }

    public long dropped() {
        return dropped;
    }

    private Slot freeSlot() {
        for (int i = 0; i < slots.length; i++) {
            Slot s = slots[(nextSlot + i) % slots.length];
            if (!s.used) {
                nextSlot = (nextSlot + i + 1) % slots.length;
                return s;
            }
        }
        return null;
    }
}
