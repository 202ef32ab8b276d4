package org.gridstat.client.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a QoS broker's event stream ({@code GET /api/v1/events}, {@code docs/management-api.md})
 * for an operator console, and keeps reading it across failures: each event (its name:
 * {@code snapshot}, {@code flows}, {@code subscriptions}, {@code alarms}, {@code devices},
 * {@code routers}; and its JSON data) goes to a {@link Listener}, each change of the connection
 * to a {@link StateListener}, both on this reader's own thread, in order.
 *
 * <p>When the stream ends, fails, or brings no byte for three keepalive periods (the broker sends
 * a keepalive every 5 s when nothing else, so a silent connection is a dead one), the reader
 * connects again after a back-off: 250 ms, doubled after each failed attempt up to 5 s, and
 * 250 ms again once a stream has gone live. Every new stream begins with a {@code snapshot}, so
 * the console is whole again without asking. A standby's 503 naming the leader is followed at
 * once (unless no connection can go to the address it names); an unreachable replica, or one that
 * takes the connection but does not answer within three keepalive periods, makes way for the next
 * one given. An event longer than
 * {@link Settings#maxEventBytes} (8 MiB by default) closes the connection and is counted, rather
 * than held. Listeners are called on the reader's thread: one that blocks holds the stream
 * back (the broker then skips pulses for it, and closes it after 10 s).
 *
 * <pre>{@code
 * BrokerEvents events = BrokerEvents.open(URI.create("http://127.0.0.1:8470"),
 *         (name, json) -> Platform.runLater(() -> console.replace(name, json)),
 *         (state, broker, detail) -> Platform.runLater(() -> console.showConnection(state, broker, detail)));
 * ...
 * events.close();
 * }</pre>
 */
public final class BrokerEvents implements AutoCloseable {
    /** The stream's path on a broker's API. */
    public static final String PATH = "/api/v1/events";
    private static final System.Logger LOG = System.getLogger(BrokerEvents.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where the reader stands. */
    public enum State {
        /** Connecting to a replica, or waiting for its answer. */
        CONNECTING,
        /** Reading a stream: its snapshot came, and every change since. */
        LIVE,
        /** The stream brought no byte for three keepalive periods: given up for dead; a new one follows. */
        STALE,
        /** No stream: the last one ended or an attempt failed (the detail says why); a new attempt follows unless closed. */
        DISCONNECTED
    }

    /** Takes each event: its name and its data, one JSON document. */
    @FunctionalInterface
    public interface Listener {
        void onEvent(String event, String data);
    }

    /** Takes each change of state, the replica it concerns and why ({@code null} when nothing needs saying). */
    @FunctionalInterface
    public interface StateListener {
        void onState(State state, URI broker, String detail);
    }

    /**
     * How the reader runs.
     *
     * @param keepalive      the broker's keepalive period (5 s unless the broker was set otherwise);
     *                       three of them without a byte make a stream stale
     * @param firstBackoff   the wait before connecting again after a stream ended (250 ms)
     * @param maxBackoff     the longest wait between failed attempts (5 s)
     * @param maxEventBytes  the longest event taken (8 MiB: a snapshot of a broker at its limits)
     * @param connectTimeout how long a connection attempt may take (5 s)
     */
    public record Settings(Duration keepalive, Duration firstBackoff, Duration maxBackoff, int maxEventBytes,
                           Duration connectTimeout) {
        public static final Settings DEFAULT = new Settings(Duration.ofSeconds(5), Duration.ofMillis(250),
                Duration.ofSeconds(5), 8 * 1024 * 1024, Duration.ofSeconds(5));

        public Settings {
            positive(keepalive, "keepalive");
            positive(firstBackoff, "first back-off");
            positive(maxBackoff, "longest back-off");
            positive(connectTimeout, "connect timeout");
            if (maxBackoff.compareTo(firstBackoff) < 0) {
                throw new IllegalArgumentException("the longest back-off must not be shorter than the first");
            }
            if (maxEventBytes < 1024) {
                throw new IllegalArgumentException("the longest event must be at least 1 KiB, got " + maxEventBytes);
            }
            if (keepalive.multipliedBy(3).toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("keepalive too long: " + keepalive);
            }
        }

        private static void positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero() || d.toMillis() == 0) {
                throw new IllegalArgumentException(what + " must be at least 1 ms, got " + d);
            }
        }

        /** No byte for this long: the stream is stale. */
        public Duration staleAfter() {
            return keepalive.multipliedBy(3);
        }
    }

    /**
     * What the reader has done so far: streams begun (answered 200), events handed on, streams given
     * up as stale, connections closed for an event over the limit, standbys' redirections followed.
     */
    public record Counters(long streams, long events, long staleStreams, long oversizeEvents, long leaderRedirects) {
    }

    private final List<URI> replicas;
    private final Settings settings;
    private final Listener listener;
    private final StateListener stateListener;
    private final Thread thread;
    private final AtomicLong streams = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong staleStreams = new AtomicLong();
    private final AtomicLong oversizeEvents = new AtomicLong();
    private final AtomicLong leaderRedirects = new AtomicLong();
    private volatile boolean closed;
    private volatile Socket socket;
    private volatile State state = State.CONNECTING;
    private volatile URI broker;

    private BrokerEvents(List<URI> replicas, Settings settings, Listener listener, StateListener stateListener) {
        this.replicas = List.copyOf(replicas);
        this.settings = settings;
        this.listener = listener;
        this.stateListener = stateListener;
        this.broker = this.replicas.get(0);
        this.thread = new Thread(this::run, "gridstat-broker-events " + broker.getAuthority());
        this.thread.setDaemon(true);
    }

    /** Reads the event stream of the broker whose API is at {@code broker} (for example {@code http://127.0.0.1:8470}). */
    public static BrokerEvents open(URI broker, Listener listener, StateListener stateListener) {
        return open(List.of(broker), Settings.DEFAULT, listener, stateListener);
    }

    /**
     * Reads the event stream of the broker whose replicas serve their API at these addresses,
     * starting with the first.
     */
    public static BrokerEvents open(List<URI> replicas, Settings settings, Listener listener, StateListener stateListener) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no broker address given");
        }
        for (URI u : replicas) {
            requireHttp(u);
        }
        BrokerEvents e = new BrokerEvents(replicas, Objects.requireNonNull(settings, "settings"),
                Objects.requireNonNull(listener, "listener"), Objects.requireNonNull(stateListener, "state listener"));
        e.thread.start();
        return e;
    }

    private static URI requireHttp(URI u) {
        if (!"http".equals(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException("broker address must be http://host:port, got " + u);
        }
        return u;
    }

    /** The state last reported. */
    public State state() {
        return state;
    }

    /** The replica the reader reads, or tries next. */
    public URI broker() {
        return broker;
    }

    public Counters counters() {
        return new Counters(streams.get(), events.get(), staleStreams.get(), oversizeEvents.get(), leaderRedirects.get());
    }

    /**
     * Stops reading: the connection is closed, no listener is called after this returns (unless
     * one is running now), and the reader's thread ends; waited for up to a second unless this is
     * called by a listener.
     */
    @Override
    public void close() {
        closed = true;
        Socket s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing is all that was wanted
            }
        }
        thread.interrupt();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How one attempt ended. */
    private enum Ending {
        /** Refused, unreachable or not a stream: try the next replica. */
        FAILED,
        /** A standby named the leader. */
        REDIRECTED,
        /** A stream ended or broke: try the same replica again. */
        ENDED,
        /** A stream fell silent: try the same replica again. */
        STALE
    }

    /** What an attempt came to. */
    private static final class Attempt {
        Ending ending = Ending.FAILED;
        String detail;
        URI leader;
        boolean live;
    }

    private void run() {
        Backoff backoff = new Backoff(settings.firstBackoff(), settings.maxBackoff());
        int nextReplica = 1;
        URI target = replicas.get(0);
        boolean redirectedLast = false;
        int redirectsInARow = 0;
        while (!closed) {
            broker = target;
            report(State.CONNECTING, target, null);
            Attempt a = attempt(target);
            if (closed) {
                break;
            }
            if (a.live) {
                backoff.reset();
            }
            switch (a.ending) {
                case REDIRECTED -> {
                    leaderRedirects.incrementAndGet();
                    if (++redirectsInARow > replicas.size()) {
                        // standbys naming each other, or a longer chain: the replicas given are asked in turn
                        redirectsInARow = 0;
                        target = replicas.get(nextReplica++ % replicas.size());
                    } else {
                        target = a.leader;
                        if (!redirectedLast) {
                            redirectedLast = true;
                            continue; // ask the leader at once; a second redirection in a row waits, as replicas may disagree briefly
                        }
                    }
                }
                case FAILED -> target = replicas.get(nextReplica++ % replicas.size());
                default -> {
                    // the same replica again: a broker restarting keeps its address
                }
            }
            redirectedLast = a.ending == Ending.REDIRECTED;
            if (!redirectedLast) {
                redirectsInARow = 0;
            }
            if (a.ending == Ending.STALE) {
                staleStreams.incrementAndGet();
            }
            report(a.ending == Ending.STALE ? State.STALE : State.DISCONNECTED, broker, a.detail);
            try {
                Thread.sleep(backoff.nextMillis());
            } catch (InterruptedException e) {
                break; // closed
            }
        }
        report(State.DISCONNECTED, broker, "closed");
    }

    /** One connection: the request, the answer, and the stream until it ends. */
    private Attempt attempt(URI target) {
        Attempt a = new Attempt();
        Socket s = new Socket();
        socket = s;
        try (s) {
            if (closed) {
                return a;
            }
            int port = target.getPort() < 0 ? 80 : target.getPort();
            try {
                s.connect(new InetSocketAddress(target.getHost(), port), (int) settings.connectTimeout().toMillis());
            } catch (IOException | IllegalArgumentException e) { // unreachable, or an address no connection can go to
                a.detail = "cannot reach " + target + ": " + e.getMessage();
                return a;
            }
            s.setSoTimeout((int) settings.staleAfter().toMillis());
            OutputStream out = s.getOutputStream();
            out.write(("GET " + PATH + " HTTP/1.1\r\nHost: " + target.getHost() + ":" + port
                    + "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            HttpHead head = HttpHead.read(in);
            if (head.status() != 200 || !head.eventStream()) {
                refused(a, target, head, in);
                return a;
            }
            streams.incrementAndGet();
            EventStreamReader reader = new EventStreamReader(head.body(in), settings.maxEventBytes());
            for (EventStreamReader.Event e = reader.next(); e != null; e = reader.next()) {
                if (!a.live) {
                    a.live = true;
                    report(State.LIVE, target, null);
                }
                events.incrementAndGet();
                deliver(e);
            }
            a.ending = Ending.ENDED;
            a.detail = "the broker ended the stream";
        } catch (SocketTimeoutException e) {
            if (a.live) {
                a.ending = Ending.STALE;
                a.detail = "no data from " + target + " for " + settings.staleAfter().toMillis() + " ms";
            } else {
                // it took the connection and never answered (hung, or not a broker): the next replica may lead
                a.detail = target + " did not answer within " + settings.staleAfter().toMillis() + " ms";
            }
        } catch (EventTooLargeException e) {
            oversizeEvents.incrementAndGet();
            a.ending = Ending.ENDED;
            a.detail = e.getMessage() + " from " + target + "; connection closed";
        } catch (IOException e) {
            a.ending = a.live ? Ending.ENDED : Ending.FAILED;
            a.detail = "talking to " + target + ": " + e.getMessage();
        }
        return a;
    }

    /** A non-stream answer: a standby's 503 naming the leader redirects; anything else fails the attempt. */
    private static void refused(Attempt a, URI target, HttpHead head, InputStream in) throws IOException {
        String body = head.refusal(in);
        String error = body;
        try {
            JsonNode doc = JSON.readTree(body);
            error = doc.path("error").asText(body);
            String leader = doc.path("leader").asText("");
            if (head.status() == 503 && !leader.isEmpty()) {
                URI named = leaderNamed(leader);
                if (named == null) {
                    error += " (its leader address '" + leader + "' is not http://host:port with a port from 1 to 65535"
                            + " and a host that is not a wildcard)";
                } else if (!named.equals(target)) {
                    a.ending = Ending.REDIRECTED;
                    a.leader = named;
                }
            }
        } catch (IOException | IllegalArgumentException notJsonOrNoLeader) {
            // the status and the text say enough
        }
        a.detail = target + " answered " + head.status() + (head.status() == 200 ? " without an event stream" : "")
                + ": " + (error.length() > 300 ? error.substring(0, 300) + "..." : error);
    }

    /**
     * The leader a standby's 503 names, if a connection can go to it: http, a host that is not a
     * wildcard (a broker bound to 0.0.0.0 or :: advertises that), a port from 1 to 65535; else
     * {@code null}, and the reader tries the next replica given instead.
     */
    static URI leaderNamed(String named) {
        try {
            URI u = new URI(named);
            String host = u.getHost();
            if (!"http".equals(u.getScheme()) || host == null || u.getPort() < 1 || u.getPort() > 65_535) {
                return null;
            }
            String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            return bare.equals("0.0.0.0") || bare.equals("::") || bare.equals("0:0:0:0:0:0:0:0") ? null : u;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    private void deliver(EventStreamReader.Event e) {
        if (closed) {
            return;
        }
        try {
            listener.onEvent(e.name(), e.data());
        } catch (RuntimeException bug) {
            // a listener's failure must not end the console's stream
            LOG.log(System.Logger.Level.WARNING, "event listener failed on a " + e.name() + " event", bug);
        }
    }

    private void report(State s, URI target, String detail) {
        state = s;
        if (closed && s != State.DISCONNECTED) {
            return;
        }
        try {
            stateListener.onState(s, target, detail);
        } catch (RuntimeException bug) {
            LOG.log(System.Logger.Level.WARNING, "state listener failed on " + s, bug);
        }
    }
}
