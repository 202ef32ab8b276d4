package org.gridstat.client.events;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The status and headers of an HTTP/1.1 answer, read from a socket: at most
 * {@value #MAX_HEAD_BYTES} bytes of them, so a server that never ends its head cannot fill the
 * reader's memory. The reader asks one request per connection, so it needs nothing more.
 */
final class HttpHead {
    /** Longer than any head the broker sends (a few hundred bytes), far shorter than harm. */
    static final int MAX_HEAD_BYTES = 16 * 1024;
    /** A refusal's body is read for its message and leader only. */
    static final int MAX_REFUSAL_BYTES = 64 * 1024;

    private final int status;
    private final Map<String, String> headers;

    private HttpHead(int status, Map<String, String> headers) {
        this.status = status;
        this.headers = headers;
    }

    /**
     * Reads the head from {@code in}, leaving {@code in} at the body's first byte.
     *
     * @throws IOException if the stream ends first, the head is longer than allowed or malformed
     */
    static HttpHead read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int newlines = 0;
        while (newlines < 2) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection before it answered");
            }
            if (head.size() >= MAX_HEAD_BYTES) {
                throw new IOException("the answer's head is longer than " + MAX_HEAD_BYTES + " bytes");
            }
            head.write(b);
            if (b == '\n') {
                newlines++;
            } else if (b != '\r') {
                newlines = 0;
            }
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r?\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x answer: " + shown(lines[0]));
        }
        int status;
        try {
            status = Integer.parseInt(statusLine[1]);
        } catch (NumberFormatException e) {
            throw new IOException("not an HTTP status: " + shown(lines[0]));
        }
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim(),
                        (a, b) -> a + ", " + b);
            }
        }
        return new HttpHead(status, headers);
    }

    int status() {
        return status;
    }

    /** A header's value ({@code null} if absent), by its name in lower case. */
    String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    boolean eventStream() {
        String type = header("content-type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    boolean chunked() {
        String coding = header("transfer-encoding");
        return coding != null && coding.toLowerCase(Locale.ROOT).contains("chunked");
    }

    /** The body of the answer, decoded from chunks if it came in them. */
    InputStream body(InputStream in) {
        return chunked() ? new ChunkedBody(in) : in;
    }

    /** A refusal's body, at most {@link #MAX_REFUSAL_BYTES} of it. */
    String refusal(InputStream in) throws IOException {
        String length = header("content-length");
        int max = MAX_REFUSAL_BYTES;
        if (length != null && !chunked()) {
            try {
                max = (int) Math.min(max, Long.parseLong(length));
            } catch (NumberFormatException e) {
                throw new IOException("malformed Content-Length: " + shown(length));
            }
        }
        return new String(body(in).readNBytes(max), StandardCharsets.UTF_8);
    }

    private static String shown(String s) {
        return s.length() <= 80 ? "'" + s + "'" : "'" + s.substring(0, 80) + "...'";
    }
}
