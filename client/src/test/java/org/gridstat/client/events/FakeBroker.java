package org.gridstat.client.events;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server on loopback that answers each connection with a script: the first connection the first
 * script, and so on, the last script for every connection beyond. For what a real broker cannot
 * be made to do on demand: fall silent, send an oversized event, send chunks.
 */
final class FakeBroker implements AutoCloseable {
    /** What to do with one connection, its request read. */
    @FunctionalInterface
    interface Script {
        void serve(OutputStream out) throws IOException, InterruptedException;
    }

    static final String STREAM_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            + "Connection: close\r\n\r\n";

    private final ServerSocket server;
    private final List<Script> scripts;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    FakeBroker(Script... scripts) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.scripts = List.of(scripts);
        this.acceptor = new Thread(this::accept, "fake-broker");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Script script = scripts.get(Math.min(connections.getAndIncrement(), scripts.size() - 1));
                Thread t = new Thread(() -> serve(s, script), "fake-broker-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void serve(Socket s, Script script) {
        try (s) {
            InputStream in = s.getInputStream();
            int newlines = 0;
            while (newlines < 2) { // the request's head
                int b = in.read();
                if (b < 0) {
                    return;
                }
                newlines = b == '\n' ? newlines + 1 : b == '\r' ? newlines : 0;
            }
            script.serve(s.getOutputStream());
            s.getOutputStream().flush();
        } catch (IOException | InterruptedException e) {
            // the client left, or the test ended
        }
    }

    static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Holds the connection open, sending nothing, until the client closes it. */
    static void silent(OutputStream out) throws InterruptedException {
        Thread.sleep(60_000);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
