package org.gridstat.core.queue;

/**
 * A bounded FIFO of IP packets, where a datagram larger than the MTU is several packets (its
 * fragments). A datagram is useful only if every fragment arrives, so how a full queue drops
 * decides the goodput under overload:
 * <ul>
 *   <li>{@link Policy#TAIL_DROP}: each packet is queued if there is room, so a datagram may be
 *       queued in part, and its queued fragments then take the wire for nothing (the collapse
 *       measured on SHDSL links);
 *   <li>{@link Policy#DATAGRAM_AWARE}: a datagram is queued whole or dropped whole, never in part.
 * </ul>
 * Packets leave in the order queued, one fragment at a time. A datagram's fragments are offered
 * together ({@link #offer}: back to back) or each when it arrives ({@link #offerFragment}: spaced by
 * the line they come in on, so the fragments of datagrams sent at the same instant interleave).
 * Single-threaded; nothing allocated per packet.
 *
 * @param <D> the datagram type
 */
public final class FragmentQueue<D> {
    /** What a full queue drops. */
    public enum Policy { TAIL_DROP, DATAGRAM_AWARE }

    private final Policy policy;
    private final Object[] datagrams;
    private final int[] fragment;
    private final int[] fragments;
    private int head;
    private int size;
    /** Slots promised to the later fragments of datagrams whose first fragment was queued (datagram-aware, spaced). */
    private int reserved;
    private long droppedPackets;
    private long droppedDatagrams;
    private long partialDatagrams;

    /** @param capacityPackets packets the queue holds, the one on the wire excluded; at least 1 */
    public FragmentQueue(int capacityPackets, Policy policy) {
        if (capacityPackets < 1) {
            throw new IllegalArgumentException("a packet queue holds at least one packet, got " + capacityPackets);
        }
        this.policy = java.util.Objects.requireNonNull(policy, "policy");
        this.datagrams = new Object[capacityPackets];
        this.fragment = new int[capacityPackets];
        this.fragments = new int[capacityPackets];
    }

    /**
     * Offers a datagram of {@code count} packets, arriving back to back.
     *
     * @return packets queued: {@code count}, 0, or under tail drop anything between (the rest were
     *     dropped)
     */
    public int offer(D datagram, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a datagram is at least one packet, got " + count);
        }
        int room = datagrams.length - size - reserved;
        int taken = policy == Policy.DATAGRAM_AWARE && room < count ? 0 : Math.min(room, count);
        for (int i = 0; i < taken; i++) {
            append(datagram, i, count);
        }
        if (taken < count) {
            droppedPackets += count - taken;
            if (taken == 0) {
                droppedDatagrams++;
            } else {
                partialDatagrams++;
            }
        }
        return taken;
    }

    /**
     * Offers fragment {@code index} of a datagram of {@code count} packets, arriving on its own.
     * Under tail drop it is queued if there is room. Datagram-aware, the first fragment is queued
     * only if the whole datagram fits, and then room is kept for the rest, which must be offered
     * (and only then: a datagram whose first fragment was refused is dropped whole, so its later
     * fragments are not offered). Counts dropped packets only: which datagrams they broke is the
     * caller's to count.
     *
     * @return whether the fragment was queued
     * @throws IllegalStateException datagram-aware, for a later fragment no room was kept for
     */
    public boolean offerFragment(D datagram, int index, int count) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("fragment " + index + " of " + count);
        }
        if (policy == Policy.DATAGRAM_AWARE) {
            if (index > 0) {
                if (reserved == 0) {
                    throw new IllegalStateException("fragment " + index + " of a datagram whose first fragment was not queued");
                }
                reserved--;
            } else if (datagrams.length - size - reserved < count) {
                droppedPackets += count;
                droppedDatagrams++;
                return false;
            } else {
                reserved += count - 1;
            }
        } else if (size == datagrams.length) {
            droppedPackets++;
            return false;
        }
        append(datagram, index, count);
        return true;
    }

    private void append(D datagram, int index, int count) {
        int at = (head + size) % datagrams.length;
        datagrams[at] = datagram;
        fragment[at] = index;
        fragments[at] = count;
        size++;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Packets queued. */
    public int size() {
        return size;
    }

    /** Packets that could be queued now: the free slots less those kept for datagrams already begun. */
    public int room() {
        return datagrams.length - size - reserved;
    }

    public Policy policy() {
        return policy;
    }

    public int capacity() {
        return datagrams.length;
    }

    /** The datagram of the packet at the head, or {@code null} if the queue is empty. */
    @SuppressWarnings("unchecked")
    public D headDatagram() {
        return size == 0 ? null : (D) datagrams[head];
    }

    /** Which of its datagram's fragments the head packet is, from 0. */
    public int headFragment() {
        requireHead();
        return fragment[head];
    }

    /** How many fragments the head packet's datagram has (queued or not). */
    public int headFragments() {
        requireHead();
        return fragments[head];
    }

    /** Removes the head packet. */
    public void remove() {
        requireHead();
        datagrams[head] = null;
        head = (head + 1) % datagrams.length;
        size--;
    }

    /** Packets dropped for want of room. */
    public long droppedPackets() {
        return droppedPackets;
    }

    /** Datagrams none of whose packets were queued. */
    public long droppedDatagrams() {
        return droppedDatagrams;
    }

    /** Datagrams queued in part (tail drop only): their queued fragments are wasted on the wire. */
    public long partialDatagrams() {
        return partialDatagrams;
    }

    private void requireHead() {
        if (size == 0) {
            throw new IllegalStateException("the packet queue is empty");
        }
    }
}
