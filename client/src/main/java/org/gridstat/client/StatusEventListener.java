package org.gridstat.client;

/** Receives status events. Called on the subscriber's receive thread, one event at a time. */
@FunctionalInterface
public interface StatusEventListener {
    /**
     * Handles one event. The event is a view valid only during this call; copy what must outlive it.
     * An exception thrown here is counted and logged, and delivery goes on.
     */
    void onEvent(ReceivedEvent event);
}
