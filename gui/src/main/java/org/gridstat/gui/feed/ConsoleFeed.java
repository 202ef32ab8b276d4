package org.gridstat.gui.feed;

/**
 * A source of the broker's state for the console. {@link PollingFeed} reads the management API's
 * GET routes every second; a push feed reading {@code GET /api/v1/events} (server-sent events
 * {@code snapshot}, then one event per changed resource, each carrying the whole body of the GET
 * route of its name) parses each event's body with {@link ResourceParser} and delivers it to the
 * same {@link FeedSink}, so the model and views do not change with the feed.
 */
public interface ConsoleFeed extends AutoCloseable {
    /** Starts delivering to {@code sink} on the feed's own thread; returns at once. */
    void start(FeedSink sink);

    /** The replicas it reads from, for the status bar. */
    String describe();

    /** Stops the feed's thread; nothing is delivered after it returns. */
    @Override
    void close();
}
