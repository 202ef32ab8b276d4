package org.gridstat.client.events;

import java.io.IOException;

/** An event longer than the reader takes: the connection is closed rather than the event held. */
final class EventTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    EventTooLargeException(int maxBytes) {
        super("an event over " + maxBytes + " bytes");
    }
}
