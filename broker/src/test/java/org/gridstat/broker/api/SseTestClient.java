package org.gridstat.broker.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A test's reader of the event stream over a plain socket: the answer's status and headers, then
 * one record at a time, an event or a keepalive comment. It trusts the broker's bytes (the client
 * module's reader is the one that bounds them).
 */
final class SseTestClient implements AutoCloseable {
    /** An event, or a comment ({@code name} null, {@code data} the comment's text). */
    record Record(String name, long id, String data) {
        boolean keepalive() {
            return name == null;
        }
    }

    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    /** The answer's body when it was not a stream. */
    final String body;
    private final Socket socket;
    private final BufferedReader in;

    SseTestClient(InetSocketAddress api) throws IOException {
        this(api, 0);
    }

    /** With the socket's receive buffer set to {@code receiveBuffer} bytes (0: the system's). */
    SseTestClient(InetSocketAddress api, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(api);
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(("GET /api/v1/events HTTP/1.1\r\nHost: broker\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        if (receiveBuffer > 0) {
            in = null; // a client that never reads
            status = 0;
            body = null;
            return;
        }
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
        String statusLine = in.readLine();
        status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        if (status != 200) {
            char[] b = new char[Integer.parseInt(headers.getOrDefault("content-length", "0"))];
            int n = 0;
            while (n < b.length) {
                n += in.read(b, n, b.length - n);
            }
            body = new String(b);
        } else {
            body = null;
        }
    }

    /** The next event or comment; {@code null} when the broker closed the stream. */
    Record next() throws IOException {
        String name = null;
        long id = -1;
        StringBuilder data = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) {
                if (data != null) {
                    return new Record(name, id, data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                if (name == null && data == null) {
                    return new Record(null, -1, line.substring(1).trim());
                }
                continue;
            }
            int colon = line.indexOf(':');
            String field = line.substring(0, colon);
            String value = line.substring(colon + 2);
            switch (field) {
                case "event" -> name = value;
                case "id" -> id = Long.parseLong(value);
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> throw new IOException("unexpected field " + line);
            }
        }
        return null;
    }

    /** The next event, skipping keepalives; {@code null} when the broker closed the stream. */
    Record nextEvent() throws IOException {
        for (Record r = next(); r != null; r = next()) {
            if (!r.keepalive()) {
                return r;
            }
        }
        return null;
    }

    /** Reads until the broker closes the stream; the bytes read. */
    long drain() throws IOException {
        long n = 0;
        byte[] b = new byte[1 << 16];
        for (int r = socket.getInputStream().read(b); r >= 0; r = socket.getInputStream().read(b)) {
            n += r;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
