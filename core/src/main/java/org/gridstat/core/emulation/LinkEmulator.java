package org.gridstat.core.emulation;

import java.util.SplittableRandom;
import org.gridstat.core.time.Saturating;

/**
 * An emulated wide-area link, deciding each packet's fate when the sender hands it over at
 * {@code now}:
 * <ol>
 *   <li>lost if the link is down (outages start at Poisson-distributed times and last a fixed
 *       duration; see {@link OutageSchedule});
 *   <li>lost if the egress queue in front of the wire has no room: the bytes not yet serialized
 *       at {@code now}, plus this packet, would exceed the queue's bytes;
 *   <li>else serialized at the link's capacity after the packets ahead of it, taking the wire for
 *       {@code bytes/capacity}, and then lost by omission (independently, with a probability: it
 *       was corrupted on the way, so it did take the wire) or delivered after the propagation
 *       delay.
 * </ol>
 * As long as {@code now} does not go backwards, packets arrive in the order they were handed over,
 * so the far end is a delay line.
 * A link of infinite capacity (0) has neither serialization nor queue: delivery is
 * {@code now + delay}. Deterministic for a seed and a sequence of calls; outages and omissions draw
 * from separate streams, so how often the link is asked whether it is down changes no omission.
 * Time is passed in, so routers and the simulator share it. Single-threaded; nothing allocated per
 * packet.
 */
public final class LinkEmulator {
    /** What {@link #transmit} returns for a lost packet. */
    public static final long LOST = -1;
    /** The queue bound that bounds nothing. */
    public static final long UNBOUNDED = Long.MAX_VALUE;
    /** The fastest wire an emulated link serializes at, in bytes per second (8 Ebit/s). */
    public static final long MAX_CAPACITY = Wire.MAX_CAPACITY;

    private final long delayNanos;
    private final double loss;
    private final Wire wire;
    private final OutageSchedule outages;
    private final SplittableRandom omissions;
    private long lostToOmission;
    private long lostToOutage;
    private long lostToQueue;

    /**
     * A link of infinite capacity: propagation delay, omission loss and outages only.
     *
     * @param meanTimeBetweenFaultsNanos mean time from the end of one outage to the start of the
     *                                   next; 0 for a link that never goes down
     */
    public LinkEmulator(long delayNanos, double loss, long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed,
                        long now) {
        this(0, UNBOUNDED, delayNanos, loss, meanTimeBetweenFaultsNanos, faultDurationNanos, seed, now);
    }

    /**
     * @param capacityBytesPerSecond     the wire's rate; 0 for infinite (no serialization, no queue)
     * @param queueBytes                 bytes that may wait for the wire, the one being serialized
     *                                   included; {@link #UNBOUNDED} for no bound
     * @param meanTimeBetweenFaultsNanos mean time from the end of one outage to the start of the
     *                                   next; 0 for a link that never goes down
     */
    public LinkEmulator(long capacityBytesPerSecond, long queueBytes, long delayNanos, double loss,
                        long meanTimeBetweenFaultsNanos, long faultDurationNanos, long seed, long now) {
        if (delayNanos < 0 || faultDurationNanos < 0 || meanTimeBetweenFaultsNanos < 0) {
            throw new IllegalArgumentException("delays and durations must not be negative");
        }
        if (capacityBytesPerSecond < 0 || capacityBytesPerSecond > Wire.MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be 0 (infinite) .. " + Wire.MAX_CAPACITY + " B/s, got "
                    + capacityBytesPerSecond);
        }
        if (queueBytes < 0) {
            throw new IllegalArgumentException("queue bytes must not be negative");
        }
        if (!(loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("loss must be a probability in 0..1, got " + loss);
        }
        this.delayNanos = delayNanos;
        this.loss = loss;
        this.wire = capacityBytesPerSecond > 0 ? new Wire(capacityBytesPerSecond, queueBytes) : null;
        SplittableRandom random = new SplittableRandom(seed);
        this.omissions = random.split();
        this.outages = new OutageSchedule(meanTimeBetweenFaultsNanos, faultDurationNanos, random, now);
    }

    /** Sends one packet whose size does not matter (a link of infinite capacity) at {@code now}. */
    public long transmit(long now) {
        return transmit(now, 0);
    }

    /**
     * Sends a packet of {@code bytes} at {@code now}.
     *
     * @return when its last byte arrives at the far end, or {@link #LOST}
     */
    public long transmit(long now, int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a packet has no negative size");
        }
        if (outages.isDown(now)) {
            lostToOutage++;
            return LOST;
        }
        long sent = now;
        if (wire != null) {
            if (!wire.hasRoom(now, bytes)) {
                lostToQueue++;
                return LOST;
            }
            sent = wire.send(now, bytes);
        }
        if (loss > 0 && omissions.nextDouble() < loss) {
            lostToOmission++;
            return LOST;
        }
        return Saturating.add(sent, delayNanos);
    }

    /** Whether the link is in an outage at {@code now}; advances the outage schedule as time passes. */
    public boolean isDown(long now) {
        return outages.isDown(now);
    }

    /** Bytes waiting for the wire or on it at {@code now}, not yet sent; 0 on a link of infinite capacity. */
    public long backlogBytes(long now) {
        return wire == null ? 0 : wire.backlogBytes(now);
    }

    public long delayNanos() {
        return delayNanos;
    }

    public long lostToOmission() {
        return lostToOmission;
    }

    public long lostToOutage() {
        return lostToOutage;
    }

    /** Packets refused because the egress queue was full. */
    public long lostToQueue() {
        return lostToQueue;
    }

    /** Outages drawn so far: the cost of finding whether the link is down, for tests. */
    long outageDraws() {
        return outages.draws;
    }
}
