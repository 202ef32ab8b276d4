package org.gridstat.sim.net;

import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.gridstat.core.queue.FragmentQueue;
import org.gridstat.sim.engine.EventLoop;

/**
 * One direction of a simulated link: a queue of IP packets (core's {@link FragmentQueue}) in front
 * of a wire that serializes them at the link's capacity, exactly (the fraction of a nanosecond each
 * packet leaves is carried to the next), then delays them by the propagation delay, loses some
 * (omission, bursty loss, outages, a cut), and hands each datagram whose packets all arrived to
 * the far end. Packets leave in order. What is lost is counted by reason, with the events it
 * carried.
 */
public final class SimLink {
    /** Why a datagram did not arrive. */
    public enum Loss { QUEUE, WIRE, DOWN }

    private static final long SECOND = 1_000_000_000L;

    private final String name;
    private final EventLoop loop;
    private final LinkModel model;
    private final FragmentQueue<SimDatagram> queue;
    private final SplittableRandom random;
    private Consumer<SimDatagram> receiver = d -> { };
    private Runnable onRoom = () -> { };
    private boolean busy;
    private long carry;
    private boolean cut;
    private boolean outage;
    private boolean badState;
    private long datagramsSent;
    private long datagramsDelivered;
    private long eventsDelivered;
    /** Datagrams whose fate is not sealed yet: neither lost nor arrived whole. */
    private long outstanding;
    /** Fragments on the access line, not yet at the queue. */
    private int packetsToCome;
    private long packetsOnWire;
    private long bytesOnWire;
    private final java.util.Map<Long, Long> lostByVariable = new java.util.HashMap<>();
    private final long[] datagramsLost = new long[Loss.values().length];
    private final long[] eventsLost = new long[Loss.values().length];

    public SimLink(String name, EventLoop loop, LinkModel model, SplittableRandom random) {
        this.name = name;
        this.loop = loop;
        this.model = model;
        this.random = random;
        this.queue = new FragmentQueue<>(model.queuePackets(), model.discipline() == LinkModel.Discipline.DATAGRAM_FIFO
                ? FragmentQueue.Policy.DATAGRAM_AWARE : FragmentQueue.Policy.TAIL_DROP);
        if (model.outageEveryNanos() > 0) {
            scheduleOutage(random.split());
        }
    }

    /** Where whole datagrams arrive. */
    public void connect(Consumer<SimDatagram> receiver) {
        this.receiver = receiver;
    }

    /** Told when the queue has room again after {@link #hasRoom} said no. */
    public void onRoom(Runnable r) {
        this.onRoom = r;
    }

    public String name() {
        return name;
    }

    public LinkModel model() {
        return model;
    }

    /**
     * Whether a datagram of {@code udpPayload} bytes would be queued whole now, counting the room
     * that fragments still on the access line will take.
     */
    public boolean hasRoom(int udpPayload) {
        return queue.room() - packetsToCome >= SimDatagram.packets(udpPayload, model.mtu());
    }

    /**
     * Hands a datagram to the link now. Its packets reach the queue together, or, over an access
     * line ({@link LinkModel#accessRate()}), the first at once and the others one after another as
     * the sender's line delivers them.
     */
    public void send(SimDatagram d) {
        datagramsSent++;
        outstanding++;
        d.packets = SimDatagram.packets(d.length, model.mtu());
        if (cut || outage) {
            lose(d, Loss.DOWN);
            return;
        }
        if (model.accessRate() == 0 || d.packets == 1) {
            int queued = queue.offer(d, d.packets);
            d.firstQueued = queued > 0;
            if (queued < d.packets) {
                lose(d, Loss.QUEUE);
            }
        } else {
            packetsToCome += d.packets - 1;
            offerFragment(d, 0);
            long bytes = 0;
            for (int i = 1; i < d.packets; i++) {
                int index = i;
                bytes += SimDatagram.packetBytes(d.length, model.mtu(), i - 1, d.packets);
                // at least 1 ns apart: datagrams sent at one instant interleave, first fragments first
                loop.after(Math.max(i, bytes * SECOND / model.accessRate()), () -> fragmentArrives(d, index));
            }
        }
        if (!busy && !queue.isEmpty()) {
            startNext();
        }
    }

    /** Fragment {@code index} (from 1) reaches the queue. A cut while the fragments arrive is caught as they leave. */
    private void fragmentArrives(SimDatagram d, int index) {
        packetsToCome--;
        // datagram-aware, a datagram whose first fragment was refused is dropped whole: the rest too
        if (queue.policy() == FragmentQueue.Policy.TAIL_DROP || d.firstQueued) {
            offerFragment(d, index);
        }
        if (!busy && !queue.isEmpty()) {
            startNext();
        }
    }

    private void offerFragment(SimDatagram d, int index) {
        if (queue.offerFragment(d, index, d.packets)) {
            d.firstQueued |= index == 0;
        } else {
            lose(d, Loss.QUEUE);
        }
    }

    private void startNext() {
        if (queue.isEmpty()) {
            busy = false;
            onRoom.run();
            return;
        }
        busy = true;
        SimDatagram d = queue.headDatagram();
        int bytes = model.framing().lineBytes(
                SimDatagram.packetBytes(d.length, model.mtu(), queue.headFragment(), queue.headFragments()));
        long scaled = bytes * SECOND + carry;
        long tx = scaled / model.capacity();
        carry = scaled % model.capacity();
        loop.after(tx, this::packetLeft);
    }

    private void packetLeft() {
        SimDatagram d = queue.headDatagram();
        int index = queue.headFragment();
        queue.remove();
        packetsOnWire++;
        bytesOnWire += SimDatagram.packetBytes(d.length, model.mtu(), index, d.packets);
        if (cut || outage) {
            lose(d, Loss.DOWN);
        } else if (lostOnWire()) {
            lose(d, Loss.WIRE);
        } else if (!d.damaged) {
            loop.after(model.delayNanos(), () -> arrive(d));
        }
        startNext();
    }

    private boolean lostOnWire() {
        LinkModel.BurstLoss b = model.burstLoss();
        boolean lost = false;
        if (b.enterBad() > 0) {
            badState = badState ? random.nextDouble() >= b.leaveBad() : random.nextDouble() < b.enterBad();
            lost = badState && random.nextDouble() < b.lossInBad();
        }
        return (model.loss() > 0 && random.nextDouble() < model.loss()) || lost;
    }

    private void arrive(SimDatagram d) {
        if (d.damaged) {
            return;
        }
        if (++d.packetsArrived == d.packets) {
            outstanding--;
            datagramsDelivered++;
            eventsDelivered += d.events;
            receiver.accept(d);
        }
    }

    /** Seals a datagram's fate as lost, once: packets of it still queued or to come take the wire for nothing. */
    private void lose(SimDatagram d, Loss why) {
        if (!d.damaged) {
            d.damaged = true;
            outstanding--;
            datagramsLost[why.ordinal()]++;
            eventsLost[why.ordinal()] += d.events;
            d.forEachVariable(v -> lostByVariable.merge(v, 1L, Long::sum));
        }
    }

    /** Events of {@code variableId} in datagrams this link lost, whatever the reason. */
    public long lostOf(long variableId) {
        return lostByVariable.getOrDefault(variableId, 0L);
    }

    private void scheduleOutage(SplittableRandom r) {
        long gap = exponential(r, model.outageEveryNanos());
        loop.after(gap, () -> {
            outage = true;
            loop.after(exponential(r, model.outageForNanos()), () -> {
                outage = false;
                scheduleOutage(r);
            });
        });
    }

    private static long exponential(SplittableRandom r, long mean) {
        return Math.max(1, (long) (-Math.log(1 - r.nextDouble()) * mean));
    }

    /** Cuts the link (everything sent or on the wire is lost) or restores it. */
    public void cut(boolean down) {
        this.cut = down;
    }

    public boolean down() {
        return cut || outage;
    }

    public long datagramsSent() {
        return datagramsSent;
    }

    public long datagramsDelivered() {
        return datagramsDelivered;
    }

    public long eventsDelivered() {
        return eventsDelivered;
    }

    public long datagramsLost(Loss why) {
        return datagramsLost[why.ordinal()];
    }

    public long eventsLost(Loss why) {
        return eventsLost[why.ordinal()];
    }

    public long packetsOnWire() {
        return packetsOnWire;
    }

    /** IP bytes the wire carried (what its framing adds is not counted). */
    public long bytesOnWire() {
        return bytesOnWire;
    }

    /** Datagrams sent whose fate is not sealed yet: neither lost nor arrived whole. */
    public long outstanding() {
        return outstanding;
    }

    /** Packets waiting for the wire now. */
    public int queued() {
        return queue.size();
    }
}
