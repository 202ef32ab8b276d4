package org.gridstat.client.events;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads server-sent events (the {@code text/event-stream} format of the HTML standard) from a
 * response body: lines ended by LF, CR or CRLF; {@code event}, {@code data} and {@code id} fields
 * (several {@code data} lines joined by LF); lines starting with {@code :} are comments (the
 * broker's keepalives); a blank line ends an event. Each event, its comments and field names
 * included, may be at most {@code maxEventBytes} long: a longer one ends the reading with an
 * {@link EventTooLargeException} before it is held whole, so a broken or hostile server costs at
 * most that much memory.
 */
final class EventStreamReader {
    /** One event: its name ({@code message} if the stream gave none), its data, its id ({@code null} if none). */
    record Event(String name, String data, String id) {
    }

    private static final int LF = '\n';
    private static final int CR = '\r';

    private final InputStream in;
    /** Read ahead of the line being parsed: the stream is read in blocks, not byte by byte. */
    private final byte[] block = new byte[8192];
    private int position;
    private int limit;
    private final int maxEventBytes;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final StringBuilder data = new StringBuilder();
    private String name;
    private String id;
    private boolean hasData;
    /** Bytes of the event being read so far. */
    private int eventBytes;
    /** The previous line ended with CR: an LF right after it belongs to it. */
    private boolean afterCr;
    private boolean started;

    EventStreamReader(InputStream in, int maxEventBytes) {
        this.in = in;
        this.maxEventBytes = maxEventBytes;
    }

    /** The next event, or {@code null} once the stream has ended (an event cut off by the end is dropped). */
    Event next() throws IOException {
        while (true) {
            String l = readLine();
            if (l == null) {
                return null;
            }
            if (l.isEmpty()) {
                Event e = hasData ? new Event(name == null ? "message" : name, data.toString(), id) : null;
                name = null;
                data.setLength(0);
                hasData = false;
                eventBytes = 0;
                if (e != null) {
                    return e;
                }
                continue;
            }
            if (l.charAt(0) == ':') {
                continue;
            }
            int colon = l.indexOf(':');
            String field = colon < 0 ? l : l.substring(0, colon);
            String value = colon < 0 ? "" : l.substring(l.startsWith(" ", colon + 1) ? colon + 2 : colon + 1);
            switch (field) {
                case "event" -> name = value;
                case "data" -> {
                    if (hasData) {
                        data.append('\n');
                    }
                    data.append(value);
                    hasData = true;
                }
                case "id" -> id = value.indexOf('\0') < 0 ? value : id;
                default -> {
                    // retry and unknown fields: ignored, as the standard says
                }
            }
        }
    }

    /** The next line without its ending, or {@code null} at the end of the stream. */
    private String readLine() throws IOException {
        line.reset();
        while (true) {
            if (position == limit) {
                int n = in.read(block);
                if (n < 0) {
                    return null;
                }
                position = 0;
                limit = n;
            }
            int b = block[position++] & 0xff;
            if (afterCr) {
                afterCr = false;
                if (b == LF) {
                    continue;
                }
            }
            if (b == LF || b == CR) {
                afterCr = b == CR;
                return text();
            }
            if (++eventBytes > maxEventBytes) {
                throw new EventTooLargeException(maxEventBytes);
            }
            line.write(b);
        }
    }

    private String text() {
        byte[] bytes = line.toByteArray();
        int from = 0;
        if (!started) {
            started = true;
            if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF) {
                from = 3; // a byte order mark may open the stream
            }
        }
        return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    }
}
