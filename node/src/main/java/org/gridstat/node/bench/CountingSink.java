package org.gridstat.node.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.WireFormat;

/**
 * Receives the bench traffic on a thread of its own, blocking in {@code receive}: counts frames and
 * records source-to-sink latency in nanoseconds. It allocates nothing per frame (the JDK reuses the
 * sender's address while it stays the same), so no GC pause of the measuring JVM is caused by it.
 */
final class CountingSink implements AutoCloseable {
    private final DatagramChannel channel;
    private final Thread reader;
    private final AtomicLong received = new AtomicLong();
    private final SingleWriterRecorder latency = new SingleWriterRecorder(10_000_000_000L, 3);
    private Histogram interval;

    CountingSink(int port) throws IOException {
        channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
        channel.bind(new InetSocketAddress("127.0.0.1", port));
        reader = new Thread(this::receive, "bench-sink-" + port);
        reader.setDaemon(true);
        reader.start();
    }

    private void receive() {
        ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        try {
            while (true) {
                buf.clear();
                channel.receive(buf);
                if (buf.position() >= WireFormat.HEADER_LENGTH) {
                    long sent = buf.getLong(WireFormat.SOURCE_TIME_OFFSET);
                    latency.recordValue(Math.max(0, Math.min(10_000_000_000L, SystemClock.INSTANCE.nanos() - sent)));
                }
                received.incrementAndGet();
            }
        } catch (ClosedChannelException e) {
            // closed: done
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    long received() {
        return received.get();
    }

    /** Forgets counts and latencies so far. */
    void reset() {
        received.set(0);
        interval = latency.getIntervalHistogram(interval);
    }

    /** Latencies recorded since the last reset. */
    Histogram latencies() {
        interval = latency.getIntervalHistogram(interval);
        return interval.copy();
    }

    @Override
    public void close() throws IOException {
        channel.close();
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
