package org.gridstat.node.bench;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.gridstat.core.time.SystemClock;

/**
 * What a user might pick instead of the router for moving messages: a NATS server on this host,
 * with the NATS Java client, moving messages of the bench's frame size from one publisher to one
 * subscriber. Measures the messages per second delivered when the publisher sends as fast as it
 * can (the client batches writes on its own), and the latency at a set rate. Runs only where
 * {@code nats-server} is installed ({@code scripts/setup --bench} installs Debian's).
 */
final class NatsComparison implements AutoCloseable {
    private static final String SUBJECT = "gridstat.bench";

    /** Messages per second delivered, messages lost (the subscriber fell behind), and latency at a set rate. */
    record Figures(double deliveredPerSecond, long sent, long delivered, double latencyRate, Histogram latency) {
    }

    private final Process server;
    private final Connection publisher;
    private final Connection subscriber;
    private final Dispatcher dispatcher;
    private final AtomicLong delivered = new AtomicLong();
    private final SingleWriterRecorder latency = new SingleWriterRecorder(10_000_000_000L, 3);

    /** Whether a {@code nats-server} is on the PATH. */
    static boolean available() {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "nats-server")));
    }

    private NatsComparison(Process server, int port) throws Exception {
        this.server = server;
        Options options = new Options.Builder().server("nats://127.0.0.1:" + port).noReconnect()
                .connectionTimeout(Duration.ofSeconds(5)).build();
        this.publisher = Nats.connect(options);
        Connection sub;
        try {
            sub = Nats.connect(options);
        } catch (Exception e) {
            publisher.close();
            throw e;
        }
        this.subscriber = sub;
        this.dispatcher = subscriber.createDispatcher(msg -> {
            long now = SystemClock.INSTANCE.nanos();
            long sent = ByteBuffer.wrap(msg.getData()).getLong(0);
            latency.recordValue(Math.max(0, Math.min(10_000_000_000L, now - sent)));
            delivered.incrementAndGet();
        });
        dispatcher.setPendingLimits(-1, -1); // count what arrives; the bench reports what it loses
        dispatcher.subscribe(SUBJECT);
        subscriber.flush(Duration.ofSeconds(5));
    }

    /** Starts a NATS server on a free loopback port, and a publisher and subscriber connected to it. */
    static NatsComparison start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder("nats-server", "-a", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly)); // a bench stopped by Ctrl-C leaves no server
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                break;
            } catch (IOException notYet) {
                if (!p.isAlive() || System.nanoTime() > end) {
                    p.destroyForcibly();
                    throw new IOException("nats-server did not start on port " + port);
                }
                Thread.sleep(50);
            }
        }
        try {
            return new NatsComparison(p, port);
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /**
     * Sends {@code count} messages of {@code bytes} bytes as fast as the client takes them, then
     * waits for the subscriber; returns messages delivered per second, from the first send to the
     * last delivery, and the latency at {@code latencyRate} or at half the delivered rate,
     * whichever is lower, so the latency run never offers more than NATS carries.
     */
    Figures throughput(int count, int bytes, double latencyRate, double latencySeconds) throws Exception {
        byte[] message = new byte[bytes];
        run(count / 10, message, 0); // warm-up: the JIT and the connections
        awaitDelivered(count / 10); // all of it, so none is counted in the measured run
        delivered.set(0);
        long start = System.nanoTime();
        run(count, message, 0);
        long last = awaitDelivered(count);
        double perSecond = delivered.get() / ((last - start) / 1e9);
        long got = delivered.get();
        latency.getIntervalHistogram(); // forget the throughput run's latencies
        delivered.set(0);
        double rate = Math.min(latencyRate, perSecond / 2);
        int atRate = (int) (rate * latencySeconds);
        run(atRate, message, rate);
        awaitDelivered(atRate);
        return new Figures(perSecond, count, got, rate, latency.getIntervalHistogram());
    }

    /** Publishes {@code n} timestamped messages, as fast as possible or paced at {@code rate} per second. */
    private void run(int n, byte[] message, double rate) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (rate > 0) {
                long due = start + (long) (i * 1e9 / rate);
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
            }
            // A new array each time: the client queues the array itself, not a copy.
            byte[] body = new byte[message.length];
            ByteBuffer.wrap(body).putLong(0, SystemClock.INSTANCE.nanos());
            publisher.publish(SUBJECT, body);
        }
        publisher.flush(Duration.ofSeconds(30));
    }

    /** Waits until {@code n} messages arrived or none did for a second; returns when the last did. */
    private long awaitDelivered(long n) throws InterruptedException {
        long seen = -1;
        long lastChange = System.nanoTime();
        while (delivered.get() < n) {
            long now = delivered.get();
            if (now != seen) {
                seen = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > 1_000_000_000L) {
                return lastChange;
            }
            Thread.sleep(1);
        }
        return System.nanoTime();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            publisher.close();
            subscriber.close();
        } finally {
            server.destroy();
            if (!server.waitFor(5, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }
}
