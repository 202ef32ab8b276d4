package org.gridstat.gui.feed;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Reads, by GET, the resources the event stream does not carry ({@link Resource#streamed()} false:
 * the replica's status, the topology, the routers' counters, the variables): at once each time the
 * stream goes live (a new stream may be another replica, or a restarted broker), then once a
 * period while it stays live. They change seldom, or are the routers' own periodic reports, so a
 * period of seconds keeps them current without the per-second rounds of a polling console.
 * Nothing is read while the stream is down: the broker is not there to answer.
 */
final class PeriodicReads {
    static final List<Resource> READ = Arrays.stream(Resource.values()).filter(r -> !r.streamed()).toList();
    private final RouteReader reader;
    private final Duration period;
    private final LongSupplier clockMillis;
    private final FeedSink sink;
    private final StreamHealth health;
    private final Thread thread;
    private boolean now;
    private volatile boolean running = true;

    PeriodicReads(RouteReader reader, Duration period, LongSupplier clockMillis, FeedSink sink, StreamHealth health) {
        this.reader = reader;
        this.period = period;
        this.clockMillis = clockMillis;
        this.sink = sink;
        this.health = health;
        this.thread = new Thread(this::run, "gridstat-console-reads");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Reads at once (the stream has just gone live), not at the end of the period. */
    synchronized void readNow() {
        now = true;
        notifyAll();
    }

    private void run() {
        while (running) {
            try {
                waitForTurn();
            } catch (InterruptedException e) {
                return;
            }
            if (running && health.live()) {
                round();
            }
        }
    }

    private synchronized void waitForTurn() throws InterruptedException {
        long until = System.nanoTime() + period.toNanos();
        for (long rest = period.toNanos(); !now && running && rest > 0; rest = until - System.nanoTime()) {
            wait(Math.max(1, rest / 1_000_000));
        }
        now = false;
    }

    /**
     * Every resource in turn; the first failure ends the round, marking that resource and those not
     * read after it unrefreshed (what was read of them stays), and the next round tries them all again.
     */
    private void round() {
        for (int i = 0; i < READ.size(); i++) {
            Resource r = READ.get(i);
            Object value;
            try {
                value = reader.read(r);
            } catch (RouteReader.Failed e) {
                if (running) {
                    for (Resource left : READ.subList(i, READ.size())) {
                        sink.unrefreshed(left, e.getMessage());
                    }
                    health.reads(e.getMessage());
                }
                return;
            }
            if (!running) {
                return;
            }
            sink.received(r, value, clockMillis.getAsLong());
        }
        health.reads(null);
    }

    void close() {
        running = false;
        synchronized (this) {
            notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
