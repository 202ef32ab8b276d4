package org.gridstat.client.events;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event stream format as the HTML standard reads it, and the bound on an event's length. */
class EventStreamReaderTest {
    private static List<EventStreamReader.Event> read(String stream, int max) throws IOException {
        return read(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), max);
    }

    private static List<EventStreamReader.Event> read(InputStream in, int max) throws IOException {
        EventStreamReader r = new EventStreamReader(in, max);
        List<EventStreamReader.Event> out = new ArrayList<>();
        for (EventStreamReader.Event e = r.next(); e != null; e = r.next()) {
            out.add(e);
        }
        return out;
    }

    @Test
    void eventsCommentsAndEveryLineEnding() throws IOException {
        String stream = "\uFEFFevent: snapshot\nid: 1\ndata: {\"flows\":[]}\n\n"
                + ": keepalive\n\n"
                + "event: flows\r\nid: 2\r\ndata: [1,\r\ndata:2]\r\n\r\n"
                + "event: alarms\rid: 3\rdata: {}\r\r"
                + "data: no name\n\n"
                + "event: nothing\n\n" // no data: not an event
                + "event: cut\ndata: off by the end";
        assertEquals(List.of(new EventStreamReader.Event("snapshot", "{\"flows\":[]}", "1"),
                new EventStreamReader.Event("flows", "[1,\n2]", "2"),
                new EventStreamReader.Event("alarms", "{}", "3"),
                new EventStreamReader.Event("message", "no name", "3")), read(stream, 1024));
    }

    @Test
    void anEventOverTheBoundEndsTheReadingBeforeItIsHeld() {
        String data = "x".repeat(2000);
        assertThrows(EventTooLargeException.class, () -> read("event: flows\ndata: " + data + "\n\n", 1024));
        assertThrows(EventTooLargeException.class, () -> read(": " + data + "\n\n", 1024), "comments count too");
        assertThrows(EventTooLargeException.class, () -> read("data: " + "y".repeat(600) + "\ndata: "
                + "z".repeat(600) + "\n\n", 1024), "an event's lines together");
    }

    @Test
    void eventsAtTheBoundAndManyOfThemPass() throws IOException {
        String data = "x".repeat(1024 - "data: ".length());
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            stream.append("data: ").append(data).append("\n\n: keepalive\n\n");
        }
        assertEquals(100, read(stream.toString(), 1024).size(), "the bound is per event, not per stream");
    }

    @Test
    void anEventSplitAcrossReadsIsWhole() throws IOException {
        byte[] bytes = "event: routers\ndata: [{\"id\":\"\u00e9\"}]\n\n".getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new InputStream() { // one byte per read, splitting the two-byte é
            private int i;

            @Override
            public int read() {
                return i < bytes.length ? bytes[i++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int c = read();
                if (c < 0) {
                    return -1;
                }
                b[off] = (byte) c;
                return 1;
            }
        };
        assertEquals(List.of(new EventStreamReader.Event("routers", "[{\"id\":\"\u00e9\"}]", null)), read(trickle, 1024));
    }
}
