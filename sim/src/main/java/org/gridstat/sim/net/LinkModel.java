package org.gridstat.sim.net;

import java.util.Objects;

/**
 * How a simulated link behaves: the wire (capacity, propagation delay, IP MTU), the packet queue in
 * front of it and its discipline, and its faults.
 *
 * @param capacity      bytes per second on the wire, IP headers included
 * @param delayNanos    propagation delay
 * @param mtu           the IP MTU: a datagram larger than {@code mtu} − 28 bytes travels in fragments
 * @param queuePackets  IP packets the queue in front of the wire holds (a router's socket and NIC
 *                      queue under {@link Discipline#SCHEDULER}, the whole buffer under a FIFO)
 * @param discipline    who orders what waits for the link
 * @param loss          probability that a packet is lost on the way (omission), independently
 * @param burstLoss     bursty loss on top of it, or {@link BurstLoss#NONE}
 * @param outageEveryNanos mean time between outages (Poisson), 0 for none
 * @param outageForNanos   mean outage duration (exponential)
 * @param framing       what the wire adds to each IP packet ({@code capacity} counts the wire's bytes)
 * @param accessRate    bytes per second of each sender's own line to the queue (its port on the
 *                      LAN): a datagram's fragments arrive spaced by it, so the fragments of
 *                      datagrams sent at the same instant interleave, first fragments first; 0 when
 *                      they arrive together, back to back. Senders do not share it: it spaces a
 *                      datagram's fragments, not datagrams
 */
public record LinkModel(long capacity, long delayNanos, int mtu, int queuePackets, Discipline discipline, double loss,
                        BurstLoss burstLoss, long outageEveryNanos, long outageForNanos, Framing framing,
                        long accessRate) {
    /** Who orders the packets that wait for the link. */
    public enum Discipline {
        /** The router's own link scheduler (EDF per class, rate sharing, pacing at the capacity). */
        SCHEDULER,
        /** One FIFO of packets, tail drop: a datagram may be queued in part. */
        FIFO,
        /** One FIFO of packets that queues a datagram whole or drops it whole. */
        DATAGRAM_FIFO
    }

    /** What the wire adds to each IP packet. */
    public enum Framing {
        /** Nothing the capacity has to carry: the wire's bytes are the IP packet's. */
        IP {
            @Override
            public int lineBytes(int ipBytes) {
                return ipBytes;
            }
        },
        /**
         * ATM with AAL5, an SHDSL or ADSL line's usual framing (RFC 2684, routed, LLC/SNAP): 8 bytes of
         * LLC/SNAP header and an 8-byte AAL5 trailer, padded to whole 48-byte cell payloads, each cell
         * 53 bytes on the line. A 1,500-byte packet takes 32 cells, 1,696 bytes.
         */
        ATM {
            @Override
            public int lineBytes(int ipBytes) {
                return (ipBytes + 16 + 47) / 48 * 53;
            }
        };

        /** Bytes an IP packet of {@code ipBytes} takes on the line. */
        public abstract int lineBytes(int ipBytes);
    }

    /**
     * Gilbert-Elliott loss: a link in its good state turns bad with probability {@code enterBad} per
     * packet and back with {@code leaveBad}; a packet sent in the bad state is lost with
     * {@code lossInBad}.
     */
    public record BurstLoss(double enterBad, double leaveBad, double lossInBad) {
        public static final BurstLoss NONE = new BurstLoss(0, 1, 0);

        public BurstLoss {
            probability("burst loss enterBad", enterBad);
            probability("burst loss leaveBad", leaveBad);
            probability("burst loss lossInBad", lossInBad);
            if (enterBad > 0 && leaveBad == 0) {
                throw new IllegalArgumentException("burst loss: a link that turns bad must be able to leave it (leaveBad > 0)");
            }
        }
    }

    public static final int DEFAULT_MTU = 1500;
    /** The slowest access line, 8 kbit/s: slower would hold a datagram's fragments apart for minutes. */
    public static final long MIN_ACCESS_RATE = 1000;
    public static final int DEFAULT_QUEUE_PACKETS = 64;

    /** A link whose wire carries bare IP packets, each datagram's fragments arriving together. */
    public LinkModel(long capacity, long delayNanos, int mtu, int queuePackets, Discipline discipline, double loss,
                     BurstLoss burstLoss, long outageEveryNanos, long outageForNanos) {
        this(capacity, delayNanos, mtu, queuePackets, discipline, loss, burstLoss, outageEveryNanos, outageForNanos,
                Framing.IP, 0);
    }

    public LinkModel {
        Objects.requireNonNull(discipline, "discipline");
        Objects.requireNonNull(framing, "framing");
        if (accessRate < 0 || (accessRate > 0 && accessRate < MIN_ACCESS_RATE)) {
            throw new IllegalArgumentException("accessRate must be 0 (fragments together) or at least " + MIN_ACCESS_RATE
                    + " B/s, got " + accessRate);
        }
        Objects.requireNonNull(burstLoss, "burstLoss");
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity + " B/s");
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delay must not be negative");
        }
        if (mtu < 576 || mtu > 65_535) {
            throw new IllegalArgumentException("mtu must be 576..65535 bytes, got " + mtu);
        }
        if (queuePackets < 1) {
            throw new IllegalArgumentException("queue must hold at least one packet, got " + queuePackets);
        }
        probability("loss", loss);
        if (outageEveryNanos < 0 || outageForNanos < 0 || (outageEveryNanos > 0) != (outageForNanos > 0)) {
            throw new IllegalArgumentException("outages need both a mean time between (outageEvery) and a mean duration"
                    + " (outageFor), both positive, or neither");
        }
    }

    /** A fault-free link under the router's scheduler. */
    public static LinkModel of(long capacity, long delayNanos) {
        return new LinkModel(capacity, delayNanos, DEFAULT_MTU, DEFAULT_QUEUE_PACKETS, Discipline.SCHEDULER, 0,
                BurstLoss.NONE, 0, 0);
    }

    public LinkModel withDiscipline(Discipline d, int packets) {
        return new LinkModel(capacity, delayNanos, mtu, packets, d, loss, burstLoss, outageEveryNanos, outageForNanos,
                framing, accessRate);
    }

    /** The same link with another framing and access line. */
    public LinkModel withLine(Framing f, long accessBytesPerSecond) {
        return new LinkModel(capacity, delayNanos, mtu, queuePackets, discipline, loss, burstLoss, outageEveryNanos,
                outageForNanos, f, accessBytesPerSecond);
    }

    private static void probability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be a probability in 0..1, got " + p);
        }
    }
}
