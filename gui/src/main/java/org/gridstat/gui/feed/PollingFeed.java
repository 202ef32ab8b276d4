package org.gridstat.gui.feed;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerException;

/**
 * Reads every resource the console shows from the management API's GET routes once a period (1 s
 * by default), on a thread of its own, each request bounded by a timeout. Requests go to the
 * leading replica: a standby's 503 names the leader and the next request goes there
 * ({@link BrokerConnection}); an unreachable replica makes way for the next one named.
 *
 * <p>A round that fails (no answer within the timeout, an error status, an unreadable body, no
 * replica reachable) ends there: what was received before stays delivered, and the state turns
 * {@link ConnectionState.Kind#STALE} (the broker answered, late or wrongly) or
 * {@link ConnectionState.Kind#RECONNECTING} (nothing to talk to), with the time of the last good
 * round. The next round tries again, so the feed is live again as soon as a leader answers.
 */
public final class PollingFeed implements ConsoleFeed {
    private final List<URI> replicas;
    private final Duration period;
    private final BrokerConnection connection;
    private final ResourceParser parser = new ResourceParser();
    private final LongSupplier clockMillis;
    private volatile Thread thread;
    private volatile boolean running;
    private long lastGoodMillis;

    /** Every second, 2 s per request at most. */
    public PollingFeed(List<URI> replicas) {
        this(replicas, Duration.ofSeconds(1), Duration.ofSeconds(2), System::currentTimeMillis);
    }

    public PollingFeed(List<URI> replicas, Duration period, Duration requestTimeout, LongSupplier clockMillis) {
        this.replicas = List.copyOf(replicas);
        this.period = period;
        this.clockMillis = clockMillis;
        // a failover wait of one request timeout: each replica is tried once a round, then the round gives up
        this.connection = BrokerConnection.connect(replicas, requestTimeout, requestTimeout);
    }

    @Override
    public String describe() {
        return replicas.stream().map(URI::toString).collect(Collectors.joining(", "));
    }

    @Override
    public synchronized void start(FeedSink sink) {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        running = true;
        sink.connection(ConnectionState.connecting(describe()));
        thread = new Thread(() -> run(sink), "gridstat-console-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(FeedSink sink) {
        long periodNanos = period.toNanos();
        while (running) {
            long started = System.nanoTime();
            round(sink);
            long rest = periodNanos - (System.nanoTime() - started);
            if (rest > 0) {
                try {
                    Thread.sleep(rest / 1_000_000, (int) (rest % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** One round: every resource in turn; the first failure ends it. */
    void round(FeedSink sink) {
        for (Resource r : Resource.values()) {
            if (!running) {
                return;
            }
            BrokerConnection.Answer a;
            try {
                a = connection.request("GET", r.path(), null);
            } catch (BrokerException e) {
                if (!running) {
                    return;
                }
                // 503: no replica could be reached or none leads; otherwise a replica failed to answer in time
                failed(sink, e.status() == 503 ? ConnectionState.Kind.RECONNECTING : ConnectionState.Kind.STALE,
                        e.getMessage());
                return;
            }
            if (a.status() != 200) {
                failed(sink, ConnectionState.Kind.STALE, r.path() + ": the broker answered " + a.status() + " "
                        + abbreviate(a.body()));
                return;
            }
            Object value;
            try {
                value = parser.parse(r, a.body());
            } catch (ResourceParser.UnreadableAnswer e) {
                failed(sink, ConnectionState.Kind.STALE, "unreadable answer: " + e.getMessage());
                return;
            }
            sink.received(r, value, clockMillis.getAsLong());
        }
        lastGoodMillis = clockMillis.getAsLong();
        sink.connection(new ConnectionState(ConnectionState.Kind.LIVE, lastGoodMillis, describe(), ""));
    }

    private void failed(FeedSink sink, ConnectionState.Kind kind, String why) {
        sink.connection(new ConnectionState(kind, lastGoodMillis, describe(), why));
    }

    private static String abbreviate(String body) {
        String b = body == null ? "" : body.replaceAll("\\s+", " ");
        return b.length() > 200 ? b.substring(0, 200) + "…" : b;
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
