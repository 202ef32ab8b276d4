package org.gridstat.sim.traffic;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.net.SimDatagram;
import org.gridstat.sim.net.SimPacket;

/**
 * Datagrams of another protocol, sent periodically (or with exponential gaps) with sizes taken in
 * turn from a list, each an opaque packet routed by the raw source's own id.
 */
public final class RawSender {
    private final EventLoop loop;
    private final long id;
    private final List<Integer> sizes;
    private final boolean poisson;
    private final long stopAt;
    private final SplittableRandom random;
    private final Consumer<SimDatagram> router;
    private final long epochBaseNanos;
    private long intervalNanos;
    private long sent;
    private long sentBytes;

    public RawSender(EventLoop loop, long id, List<Integer> sizes, long intervalNanos, boolean poisson, long stopAt,
                     long epochBaseNanos, SplittableRandom random, Consumer<SimDatagram> router) {
        this.loop = loop;
        this.id = id;
        this.sizes = List.copyOf(sizes);
        this.intervalNanos = intervalNanos;
        this.poisson = poisson;
        this.stopAt = stopAt;
        this.epochBaseNanos = epochBaseNanos;
        this.random = random;
        this.router = router;
    }

    public void start(long at) {
        loop.at(at, this::send);
    }

    public void interval(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
        this.intervalNanos = nanos;
    }

    private void send() {
        long now = loop.now();
        if (now >= stopAt) {
            return;
        }
        int size = sizes.get((int) (sent % sizes.size()));
        router.accept(SimDatagram.of(SimPacket.opaque(size, id, sent, epochBaseNanos + now, 0)));
        sent++;
        sentBytes += size;
        long gap = poisson ? Math.max(1, (long) (-Math.log(1 - random.nextDouble()) * intervalNanos)) : intervalNanos;
        loop.after(gap, this::send);
    }

    public long id() {
        return id;
    }

    public long sent() {
        return sent;
    }

    public long sentBytes() {
        return sentBytes;
    }
}
