package org.gridstat.gui.feed;

import java.net.URI;
import java.util.function.LongSupplier;
import org.gridstat.client.events.BrokerEvents;

/**
 * The event-stream feed's one {@link ConnectionState}: the stream's own state
 * ({@link BrokerEvents.State}), and, while it is live, whether the last periodic read of the
 * resources the stream does not carry succeeded. A failed read does not make the console stale:
 * the streamed resources are current; the resources it could not read are marked on their own
 * ({@link FeedSink#unrefreshed}), and the state's detail says why. The time of the last good data
 * is that of the last event received.
 *
 * <p>A stream that ended or fell silent after going live is {@code STALE} (the broker was there:
 * its last data is kept and marked); an attempt that finds nobody to talk to, or no leader, is
 * {@code RECONNECTING}. Calls come from the stream's thread and the reads' thread, hence the lock.
 */
final class StreamHealth {
    private final FeedSink sink;
    private final LongSupplier clockMillis;
    private ConnectionState.Kind stream = ConnectionState.Kind.RECONNECTING;
    private String streamDetail = "connecting";
    private String broker;
    private String readProblem;
    private long lastGoodMillis;
    /** The stream went live since its last attempt began: its ending makes the data stale, not gone. */
    private boolean liveThisAttempt;

    StreamHealth(FeedSink sink, String broker, LongSupplier clockMillis) {
        this.sink = sink;
        this.broker = broker;
        this.clockMillis = clockMillis;
    }

    synchronized boolean live() {
        return stream == ConnectionState.Kind.LIVE;
    }

    /** A change of the stream's state, as {@link BrokerEvents} reports it. */
    synchronized void stream(BrokerEvents.State state, URI replica, String detail) {
        broker = replica.toString();
        String why = detail == null ? "" : detail;
        switch (state) {
            case CONNECTING -> {
                liveThisAttempt = false;
                if (lastGoodMillis != 0) {
                    return; // still stale, or still reconnecting: saying "connecting" every attempt would hide why
                }
                stream = ConnectionState.Kind.RECONNECTING;
                streamDetail = "connecting to " + replica;
            }
            case LIVE -> {
                liveThisAttempt = true;
                stream = ConnectionState.Kind.LIVE;
                streamDetail = "";
                lastGoodMillis = clockMillis.getAsLong();
            }
            case STALE -> {
                stream = ConnectionState.Kind.STALE;
                streamDetail = why;
            }
            case DISCONNECTED -> {
                stream = liveThisAttempt ? ConnectionState.Kind.STALE : ConnectionState.Kind.RECONNECTING;
                streamDetail = why;
                liveThisAttempt = false;
            }
        }
        publish();
    }

    /** An event was received and delivered whole: the data is good as of now. */
    synchronized void eventDelivered() {
        if (stream == ConnectionState.Kind.LIVE) {
            lastGoodMillis = clockMillis.getAsLong();
            publish();
        }
    }

    /** An event could not be read: what was delivered before stays, marked stale until a good one comes. */
    synchronized void eventUnreadable(String why) {
        if (stream == ConnectionState.Kind.LIVE) {
            sink.connection(new ConnectionState(ConnectionState.Kind.STALE, lastGoodMillis, broker, why));
        }
    }

    /** The outcome of a round of periodic reads: {@code null} if every read succeeded, else why not. */
    synchronized void reads(String problem) {
        readProblem = problem;
        publish();
    }

    private void publish() {
        ConnectionState.Kind kind = stream;
        String detail = streamDetail;
        if (kind == ConnectionState.Kind.LIVE && readProblem != null) {
            detail = "the event stream is live, but status, topology, counters or variables were not refreshed: "
                    + readProblem;
        }
        sink.connection(new ConnectionState(kind, lastGoodMillis, broker, detail));
    }
}
