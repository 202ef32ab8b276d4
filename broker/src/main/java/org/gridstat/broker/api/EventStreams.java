package org.gridstat.broker.api;

import io.netty.channel.Channel;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event streams of one management API: at most {@link EventStreamSettings#maxStreams} open,
 * and the pulse that feeds them. The pulse takes the five resources once for every stream, and a
 * new stream's snapshot is taken, on a thread of their own (started with the first stream, so the
 * event loops never build a view of a thousand flows); the pulse then hands what it took to each
 * stream on its connection's event loop. A pulse whose
 * resources are refused (the replica lost the lead) closes every stream: its console reconnects,
 * and the standby's 503 sends it to the new leader. Thread-safe.
 */
final class EventStreams implements AutoCloseable {
    /** What the routes answer {@code GET /events} with: the API then hands the connection to a stream. */
    enum Accepted {
        STREAM
    }

    static final ApiResponse ACCEPTED = new ApiResponse(200, Accepted.STREAM);

    private static final Logger LOG = LoggerFactory.getLogger(EventStreams.class);
    /** The thread that takes the snapshots and runs the pulses. */
    static final String THREAD = "gridstat-broker-events";

    /** A stream ready to start, or the answer refusing it. */
    record Opened(EventStream stream, ApiResponse refusal) {
    }

    private final LiveViews views;
    private final EventStreamSettings settings;
    private final NanoClock clock;
    private final Set<EventStream> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong refusedAtCap = new AtomicLong();
    private final AtomicLong closedUnwritable = new AtomicLong();
    private final AtomicLong closedUnanswered = new AtomicLong();
    private final AtomicLong skippedPulses = new AtomicLong();
    private final AtomicLong largestBacklog = new AtomicLong();
    /** Streams admitted and not yet closed, including one whose snapshot is being taken. Guarded by this. */
    private int admitted;
    private boolean closed;
    private ScheduledExecutorService pulse;

    EventStreams(ManagementApi.Routes routes, EventStreamSettings settings, NanoClock clock) {
        this.views = new LiveViews(routes);
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * A stream for this connection, with its snapshot taken; or the answer refusing it: 503 at the
     * cap or while closing, or the refusal of a resource's {@code GET} (a standby's 503 naming the
     * leader). Call on the connection's event loop: the cap is checked there, and the snapshot
     * (the five resources, a view of every flow) is taken on the streams' own thread, not on the
     * event loop, whose other connections it would hold up; the answer completes on that thread.
     * Then {@link EventStream#start} the stream on the event loop.
     */
    CompletableFuture<Opened> open(Channel channel) {
        ScheduledExecutorService worker;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.completedFuture(new Opened(null,
                        ApiResponse.error(503, "the broker is closing its management API")));
            }
            if (admitted >= settings.maxStreams()) {
                refusedAtCap.incrementAndGet();
                return CompletableFuture.completedFuture(new Opened(null, ApiResponse.error(503, "the broker serves at most "
                        + settings.maxStreams() + " event streams at once and all are open; close one, or poll the"
                        + " resources instead")));
            }
            admitted++;
            if (pulse == null) {
                pulse = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, THREAD);
                    t.setDaemon(true);
                    return t;
                });
                pulse.scheduleWithFixedDelay(this::pulse, settings.pulseNanos(), settings.pulseNanos(), TimeUnit.NANOSECONDS);
            }
            worker = pulse;
        }
        try {
            // the pulses' thread: a snapshot and a pulse never build their views at once
            return CompletableFuture.supplyAsync(() -> opened(channel), worker);
        } catch (RejectedExecutionException closing) {
            synchronized (this) {
                admitted--;
            }
            return CompletableFuture.completedFuture(new Opened(null,
                    ApiResponse.error(503, "the broker is closing its management API")));
        }
    }

    /** Takes a new stream's snapshot and admits the stream, or gives its place back with the refusal. */
    private Opened opened(Channel channel) {
        LiveViews.Snapshot first;
        try {
            first = views.take();
        } catch (RuntimeException e) {
            first = new LiveViews.Snapshot(null, null, ApiResponse.error(500, "cannot take the snapshot: " + e));
        }
        synchronized (this) {
            if (first.refusal() != null || closed) {
                admitted--;
                return new Opened(null, first.refusal() != null ? first.refusal()
                        : ApiResponse.error(503, "the broker is closing its management API"));
            }
            EventStream s = new EventStream(channel, settings, clock, this, first);
            open.add(s);
            channel.closeFuture().addListener(f -> released(s)); // at once if the console has left meanwhile
            return new Opened(s, null);
        }
    }

    private synchronized void released(EventStream s) {
        if (open.remove(s)) {
            admitted--;
        }
    }

    private void pulse() {
        try {
            if (open.isEmpty()) {
                return;
            }
            LiveViews.Snapshot now = views.next();
            if (now.refusal() != null) {
                LOG.info("closing {} event streams: the resources are answered {} ({})", open.size(),
                        now.refusal().status(), now.refusal().body());
                for (EventStream s : open) {
                    closedUnanswered.incrementAndGet();
                    s.channel().close();
                }
                return;
            }
            for (EventStream s : open) {
                s.channel().eventLoop().execute(() -> s.pulse(now));
            }
        } catch (RuntimeException e) {
            // a failed pulse must not end the schedule: the next one tries again
            LOG.warn("event pulse failed: {}", e.toString());
        }
    }

    void backlog(long bytes) {
        largestBacklog.accumulateAndGet(bytes, Math::max);
    }

    void pulseSkipped() {
        skippedPulses.incrementAndGet();
    }

    void closedUnwritable() {
        closedUnwritable.incrementAndGet();
    }

    ManagementApi.StreamCounters counters() {
        return new ManagementApi.StreamCounters(open.size(), refusedAtCap.get(), closedUnwritable.get(),
                closedUnanswered.get(), skippedPulses.get(), largestBacklog.get());
    }

    /** Stops the pulse and closes every stream; new ones are refused. */
    @Override
    public void close() {
        ScheduledExecutorService p;
        synchronized (this) {
            closed = true;
            p = pulse;
        }
        if (p != null) {
            p.shutdownNow();
        }
        for (EventStream s : open) {
            s.channel().close();
        }
    }
}
