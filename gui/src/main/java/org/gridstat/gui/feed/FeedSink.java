package org.gridstat.gui.feed;

/**
 * Where a feed delivers what it reads, on the feed's own threads (the event-stream feed has two:
 * the stream's and the periodic reads'): each resource parsed as a whole (the latest state of
 * every element in it), and changes of the connection's state. Implementations must be safe to
 * call from more than one thread, return quickly and not touch the UI.
 */
public interface FeedSink {
    /**
     * The current state of a resource, parsed ({@link ResourceParser}).
     *
     * @param receivedAtMillis when the answer arrived, on the feed's clock
     */
    void received(Resource resource, Object value, long receivedAtMillis);

    void connection(ConnectionState state);

    /**
     * The feed tried to refresh {@code resource} and could not (a periodic read failed): what was
     * delivered of it stays, and is to be marked with {@code why} until it is delivered again.
     */
    default void unrefreshed(Resource resource, String why) {
    }
}
