package org.gridstat.gui.feed;

/**
 * A source of the broker's state for the console. {@link EventStreamFeed} (the default) reads
 * {@code GET /api/v1/events} (server-sent events: a {@code snapshot}, then one event per changed
 * resource, each carrying the whole body of the GET route of its name) and the few routes the
 * stream does not carry every few seconds; {@link PollingFeed} ({@code gridstat gui --poll}) reads
 * every GET route every second. Both parse with {@link ResourceParser} and deliver to the same
 * {@link FeedSink}, so the model and views do not change with the feed.
 */
public interface ConsoleFeed extends AutoCloseable {
    /** Starts delivering to {@code sink} on the feed's own threads; returns at once. */
    void start(FeedSink sink);

    /** The replicas it reads from, for the status bar. */
    String describe();

    /** Stops the feed's thread; nothing is delivered after it returns. */
    @Override
    void close();
}
