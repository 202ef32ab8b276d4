package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;

/** The events of a datagram a router sent (a lone frame or a batch), in order, each asserted valid. */
final class SentEvents {
    /** One sent event: its variable and sequence number. */
    record Event(long variable, long sequence) {
    }

    private SentEvents() {
    }

    /** The events of the datagram between {@code datagram}'s position and limit. */
    static List<Event> of(ByteBuffer datagram) {
        DatagramReader reader = new DatagramReader();
        StatusEventDecoder decoder = new StatusEventDecoder();
        int at = datagram.position();
        assertEquals(RejectReason.NONE, reader.open(datagram, at, datagram.remaining()), "a datagram the router sent");
        List<Event> events = new ArrayList<>();
        while (reader.next()) {
            assertEquals(RejectReason.NONE, decoder.wrap(datagram, reader.eventOffset(), reader.eventLength()));
            events.add(new Event(decoder.variableId(), decoder.sequence()));
        }
        return events;
    }
}
