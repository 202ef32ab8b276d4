package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The management API's limits over real sockets on loopback: a client trickling a request is cut
 * off at the request deadline with 408, requests pipelined beyond the queue are answered 503 in
 * their turn, and at the connection cap the longest-idle connection makes room (or, every
 * connection busy, the new one is answered 503).
 */
class ManagementApiLimitsTest {
    private static final long MS = 1_000_000L;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<CompletableFuture<ApiResponse>> held = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ManagementApi api;

    /** {@code /slow} answers when the test completes it; anything else at once. */
    private void start(ApiLimits limits) {
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), (method, path, body) -> {
            if (path.equals("/slow")) {
                CompletableFuture<ApiResponse> f = new CompletableFuture<>();
                held.add(f);
                return f;
            }
            return CompletableFuture.completedFuture(ApiResponse.ok(Map.of("path", path)));
        }, limits);
    }

    @AfterEach
    void stop() throws IOException {
        held.forEach(f -> f.complete(ApiResponse.ok(Map.of())));
        for (Socket s : sockets) {
            s.close();
        }
        api.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(api.address());
        s.setSoTimeout(10_000);
        return s;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: broker\r\n\r\n";
    }

    /** Reads one response's status, skipping its headers and body; -1 if the server closed first. */
    private static int status(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            return -1;
        }
        int length = 0;
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private void awaitCounter(java.util.function.LongSupplier counter, long value, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000 * MS;
        while (counter.getAsLong() != value && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertEquals(value, counter.getAsLong(), what);
    }

    @Test
    void aClientTricklingARequestIsAnswered408AtTheDeadlineAndDisconnected() throws Exception {
        start(new ApiLimits(100, 500 * MS));
        Socket slow = connect();
        byte[] request = get("/status").getBytes(StandardCharsets.US_ASCII);
        Thread trickle = new Thread(() -> {
            try {
                OutputStream out = slow.getOutputStream();
                for (byte b : request) { // one byte every 200 ms: the idle timer alone would never fire
                    out.write(b);
                    out.flush();
                    Thread.sleep(200);
                }
            } catch (IOException | InterruptedException closed) {
                // the server hung up, as it should
            }
        }, "trickling-client");
        long t0 = System.nanoTime();
        trickle.start();
        InputStream in = new BufferedInputStream(slow.getInputStream());
        assertEquals(408, status(in));
        long after = (System.nanoTime() - t0) / MS;
        assertEquals(-1, in.read(), "then the connection is closed");
        assertTrue(after >= 450 && after < 5_000, "cut off at the deadline, not before: " + after + " ms");
        assertEquals(1, api.counters().requestTimeouts());
        trickle.interrupt();

        Socket prompt = connect(); // a client that sends its request at once is served as before
        prompt.getOutputStream().write(get("/status").getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, status(new BufferedInputStream(prompt.getInputStream())));
    }

    @Test
    void requestsPipelinedBeyondTheQueueAreAnswered503InTheirTurnAndTheConnectionStays() throws Exception {
        start(ApiLimits.DEFAULT);
        Socket s = connect();
        StringBuilder pipelined = new StringBuilder(get("/slow")); // held: the others queue behind it
        for (int i = 0; i < 20; i++) {
            pipelined.append(get("/n" + i));
        }
        s.getOutputStream().write(pipelined.toString().getBytes(StandardCharsets.US_ASCII));
        awaitCounter(() -> api.counters().pipelineRefusals(), 4, "16 queue behind the first, the last 4 are refused");
        held.get(0).complete(ApiResponse.ok(Map.of()));
        InputStream in = new BufferedInputStream(s.getInputStream());
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            statuses.add(status(in));
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            expected.add(200);
        }
        expected.addAll(List.of(503, 503, 503, 503));
        assertEquals(expected, statuses);
        s.getOutputStream().write(get("/again").getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, status(in), "the connection stays open");
    }

    @Test
    void atTheCapTheLongestIdleConnectionMakesRoomAndWhenAllAreBusyTheNewOneIs503() throws Exception {
        start(new ApiLimits(2, 10_000 * MS));
        Socket oldest = connect();
        // admitted on its event loop before the next is accepted: two loops would otherwise admit them in either order
        awaitCounter(() -> api.counters().connections(), 1, "the oldest counted");
        Socket idle = connect();
        awaitCounter(() -> api.counters().connections(), 2, "both counted");
        Socket operator = connect(); // displaces the longest idle
        operator.getOutputStream().write(get("/status").getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, status(new BufferedInputStream(operator.getInputStream())));
        assertEquals(-1, oldest.getInputStream().read(), "the longest-idle connection was closed");
        assertEquals(1, api.counters().displacedAtCap());

        // both places hold a request in progress: a third connection is told so and closed
        idle.close();
        awaitCounter(() -> api.counters().connections(), 1, "a closed connection frees its place");
        Socket busy = connect();
        operator.getOutputStream().write(get("/slow").getBytes(StandardCharsets.US_ASCII));
        busy.getOutputStream().write(get("/slow").getBytes(StandardCharsets.US_ASCII));
        awaitCounter(() -> held.size(), 2, "both requests in progress");
        Socket third = connect();
        InputStream in = new BufferedInputStream(third.getInputStream());
        assertEquals(503, status(in));
        assertEquals(-1, in.read());
        assertEquals(1, api.counters().refusedAtCap());
        held.forEach(f -> f.complete(ApiResponse.ok(Map.of())));
        assertEquals(200, status(new BufferedInputStream(operator.getInputStream())), "the busy ones are answered");
    }

    /**
     * As many clients as the cap, each having sent one byte of a request, must not lock operators
     * out until the deadline (and, sent again each deadline, for ever): a connection still sending
     * its request makes room at the cap, only one being answered does not.
     */
    @Test
    void clientsThatSentOneByteEachDoNotLockAnOperatorOut() throws Exception {
        start(new ApiLimits(4, 5_000 * MS));
        for (int i = 0; i < 4; i++) {
            OutputStream out = connect().getOutputStream();
            out.write('G');
            out.flush();
        }
        Thread.sleep(300); // the server has read each byte
        Socket operator = connect();
        operator.getOutputStream().write(get("/status").getBytes(StandardCharsets.US_ASCII));
        assertEquals(200, status(new BufferedInputStream(operator.getInputStream())),
                "an operator's /status while 4 clients have each sent one byte");
    }
}
