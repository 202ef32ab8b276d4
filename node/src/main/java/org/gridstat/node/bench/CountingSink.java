package org.gridstat.node.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.WireFormat;

/**
 * Receives the bench traffic on a thread of its own, blocking in {@code receive}: counts frames,
 * in total and per variable, records source-to-sink latency in nanoseconds (per group of
 * variables, such as a service class) and counts frames that arrived after the deadline in their
 * header. It allocates nothing per frame (the JDK reuses the sender's address while it stays the
 * same), so no GC pause of the measuring JVM is caused by it.
 */
final class CountingSink implements AutoCloseable {
    /** Variables counted one by one have ids below this; others count in the total only. */
    static final int MAX_VARIABLE = 64;

    private final DatagramChannel channel;
    private final Thread reader;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLongArray perVariable = new AtomicLongArray(MAX_VARIABLE);
    private final AtomicLongArray latePerVariable = new AtomicLongArray(MAX_VARIABLE);
    private final int[] groupOf;
    /** Latency by sequence number of one variable's first frames, -1 until one arrives (see {@link #track}). */
    private volatile long trackedVariable = -1;
    private volatile AtomicLongArray trackedLatency = new AtomicLongArray(0);
    private final SingleWriterRecorder[] latency;
    private final Histogram[] sinceReset;
    private final Histogram[] scratch;

    /** A sink recording every frame's latency in one histogram. */
    CountingSink(int port) throws IOException {
        this(port, new int[0], 1);
    }

    /**
     * @param groupOf the latency group of each variable id (absent ids: group 0)
     * @param groups  the number of groups
     */
    CountingSink(int port, int[] groupOf, int groups) throws IOException {
        this.groupOf = groupOf.clone();
        this.latency = new SingleWriterRecorder[groups];
        this.sinceReset = new Histogram[groups];
        this.scratch = new Histogram[groups];
        for (int g = 0; g < groups; g++) {
            latency[g] = new SingleWriterRecorder(10_000_000_000L, 3);
            sinceReset[g] = new Histogram(10_000_000_000L, 3);
        }
        channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
        channel.bind(new InetSocketAddress("127.0.0.1", port));
        reader = new Thread(this::receive, "bench-sink-" + port);
        reader.setDaemon(true);
        reader.start();
    }

    private void receive() {
        ByteBuffer buf = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH + 1);
        DatagramReader datagram = new DatagramReader();
        try {
            while (true) {
                buf.clear();
                channel.receive(buf);
                long now = SystemClock.INSTANCE.nanos();
                if (datagram.open(buf, 0, buf.position()) != RejectReason.NONE) {
                    received.incrementAndGet();
                    continue;
                }
                while (datagram.next()) {
                    count(buf, datagram.eventOffset(), datagram.eventLength(), now);
                }
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

    /** Counts one event at {@code at}; checks no checksum (the bench's own traffic). */
    private void count(ByteBuffer buf, int at, int length, long now) {
        if (length >= WireFormat.HEADER_LENGTH) {
            long variable = buf.getLong(at + WireFormat.VARIABLE_ID_OFFSET);
            long deadline = buf.getLong(at + WireFormat.DEADLINE_OFFSET);
            int group = variable >= 0 && variable < groupOf.length ? groupOf[(int) variable] : 0;
            long sent = buf.getLong(at + WireFormat.SOURCE_TIME_OFFSET);
            latency[group].recordValue(Math.max(0, Math.min(10_000_000_000L, now - sent)));
            if (variable == trackedVariable) {
                AtomicLongArray byIndex = trackedLatency;
                long sequence = buf.getLong(at + WireFormat.SEQUENCE_OFFSET);
                if (sequence >= 0 && sequence < byIndex.length()) {
                    byIndex.set((int) sequence, Math.max(0, now - sent));
                }
            }
            if (variable >= 0 && variable < MAX_VARIABLE) {
                perVariable.incrementAndGet((int) variable);
                if (deadline != WireFormat.NO_DEADLINE && now > deadline) {
                    latePerVariable.incrementAndGet((int) variable);
                }
            }
        }
        received.incrementAndGet();
    }

    /** Frames of {@code variable} since the last reset (0 for ids not counted one by one). */
    long received(long variable) {
        return variable >= 0 && variable < MAX_VARIABLE ? perVariable.get((int) variable) : 0;
    }

    /** Frames of {@code variable} that arrived after the deadline they carried, since the last reset. */
    long late(long variable) {
        return variable >= 0 && variable < MAX_VARIABLE ? latePerVariable.get((int) variable) : 0;
    }

    /**
     * Records the latency of each of {@code variable}'s frames with sequence numbers below {@code
     * count} (a publication numbers its samples from 0), so a run can tell which samples came late or
     * never; set before the traffic starts.
     */
    void track(long variable, int count) {
        AtomicLongArray byIndex = new AtomicLongArray(count);
        for (int i = 0; i < count; i++) {
            byIndex.set(i, -1);
        }
        trackedLatency = byIndex;
        trackedVariable = variable;
    }

    /** The tracked variable's latency by sequence number, in nanoseconds; -1 where none arrived. */
    long[] trackedLatencies() {
        AtomicLongArray byIndex = trackedLatency;
        long[] out = new long[byIndex.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = byIndex.get(i);
        }
        return out;
    }

    /** Forgets counts and latencies so far. */
    void reset() {
        received.set(0);
        for (int v = 0; v < MAX_VARIABLE; v++) {
            perVariable.set(v, 0);
            latePerVariable.set(v, 0);
        }
        for (int g = 0; g < latency.length; g++) {
            scratch[g] = latency[g].getIntervalHistogram(scratch[g]); // drained, forgotten
            sinceReset[g].reset();
        }
    }

    /** Latencies of every group recorded since the last reset. */
    Histogram latencies() {
        Histogram all = new Histogram(10_000_000_000L, 3);
        for (int g = 0; g < latency.length; g++) {
            all.add(latencies(g));
        }
        return all;
    }

    /** Latencies of one group recorded since the last reset. */
    Histogram latencies(int group) {
        scratch[group] = latency[group].getIntervalHistogram(scratch[group]);
        sinceReset[group].add(scratch[group]);
        return sinceReset[group].copy();
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
