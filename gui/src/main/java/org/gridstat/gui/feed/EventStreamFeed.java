package org.gridstat.gui.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.events.BrokerEvents;

/**
 * The console's feed from the broker's event stream ({@code GET /api/v1/events}, read by
 * {@link BrokerEvents}): the {@code snapshot}'s resources and then each event's whole resource are
 * parsed by {@link ResourceParser} and delivered as they come, so a change reaches the console
 * within the broker's pulse (250 ms) without the console asking. What the stream does not carry
 * (status, topology, counters, variables) is read by GET when the stream goes live and every
 * {@code readPeriod} after ({@link PeriodicReads}).
 *
 * <p>The reader reconnects by itself, follows a standby's redirection to the leader and gives up a
 * silent stream as dead; every new stream begins with a snapshot, so the console is whole again
 * at once. Meanwhile what was received stays delivered and the state says why it is not live
 * ({@link StreamHealth}).
 */
public final class EventStreamFeed implements ConsoleFeed {
    /** Status, topology, counters and variables are read this often while the stream is live. */
    public static final Duration READ_PERIOD = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<URI> replicas;
    private final Duration readPeriod;
    private final Duration requestTimeout;
    private final BrokerEvents.Settings streamSettings;
    private final LongSupplier clockMillis;
    private final ResourceParser parser = new ResourceParser();
    private BrokerEvents events;
    private PeriodicReads reads;
    private volatile boolean closed;

    /** Reads every 10 s, 2 s per request at most, the reader's default settings. */
    public EventStreamFeed(List<URI> replicas) {
        this(replicas, READ_PERIOD, Duration.ofSeconds(2), BrokerEvents.Settings.DEFAULT, System::currentTimeMillis);
    }

    public EventStreamFeed(List<URI> replicas, Duration readPeriod, Duration requestTimeout,
                           BrokerEvents.Settings streamSettings, LongSupplier clockMillis) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no broker address given");
        }
        this.replicas = List.copyOf(replicas);
        this.readPeriod = readPeriod;
        this.requestTimeout = requestTimeout;
        this.streamSettings = streamSettings;
        this.clockMillis = clockMillis;
    }

    @Override
    public String describe() {
        return replicas.stream().map(URI::toString).collect(Collectors.joining(", "));
    }

    @Override
    public synchronized void start(FeedSink sink) {
        if (events != null || closed) {
            throw new IllegalStateException(closed ? "closed" : "already started");
        }
        sink.connection(ConnectionState.connecting(describe()));
        StreamHealth health = new StreamHealth(sink, describe(), clockMillis);
        // a failover wait of one request timeout, as the polling feed's: a read gives up rather than holding its round
        RouteReader reader = new RouteReader(BrokerConnection.connect(replicas, requestTimeout, requestTimeout));
        reads = new PeriodicReads(reader, readPeriod, clockMillis, sink, health);
        reads.start();
        events = BrokerEvents.open(replicas, streamSettings, (name, data) -> {
            if (!closed) {
                event(name, data, sink, health);
            }
        }, (state, broker, detail) -> {
            if (closed) {
                return;
            }
            health.stream(state, broker, detail);
            if (state == BrokerEvents.State.LIVE) {
                reads.readNow();
            }
        });
    }

    /** One event: the snapshot's resources each, or one resource; a part that cannot be read delivers nothing. */
    private void event(String name, String data, FeedSink sink, StreamHealth health) {
        try {
            if (name.equals("snapshot")) {
                JsonNode doc = JSON.readTree(data);
                if (doc == null || !doc.isObject()) {
                    throw new ResourceParser.UnreadableAnswer("snapshot: expected an object");
                }
                // parse all before delivering any, so a bad part never leaves the console half old, half new
                Map<Resource, Object> parsed = new java.util.EnumMap<>(Resource.class);
                for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Resource r = Resource.named(e.getKey());
                    if (r != null) {
                        parsed.put(r, parser.parse(r, e.getValue()));
                    }
                }
                long at = clockMillis.getAsLong();
                parsed.forEach((r, v) -> sink.received(r, v, at));
            } else {
                Resource r = Resource.named(name);
                if (r == null) {
                    return; // an event a newer broker sends that this console does not show
                }
                sink.received(r, parser.parse(r, data), clockMillis.getAsLong());
            }
            health.eventDelivered();
        } catch (IOException e) {
            unreadable(name, "unreadable " + name + " event: not JSON: " + e.getMessage(), sink, health);
        } catch (ResourceParser.UnreadableAnswer e) {
            unreadable(name, "unreadable " + name + " event: " + e.getMessage(), sink, health);
        }
    }

    /**
     * An event not read: the resources it carried (the snapshot: every streamed one) are marked as
     * not refreshed until an event of theirs is read, so the stream going on live with other
     * resources' events does not present what was shown before as current.
     */
    private static void unreadable(String name, String why, FeedSink sink, StreamHealth health) {
        if (name.equals("snapshot")) {
            for (Resource r : Resource.values()) {
                if (r.streamed()) {
                    sink.unrefreshed(r, why);
                }
            }
        } else if (Resource.named(name) != null) {
            sink.unrefreshed(Resource.named(name), why);
        }
        health.eventUnreadable(why);
    }

    @Override
    public void close() {
        BrokerEvents e;
        PeriodicReads r;
        synchronized (this) {
            closed = true;
            e = events;
            r = reads;
        }
        if (e != null) {
            e.close();
        }
        if (r != null) {
            r.close();
        }
    }
}
