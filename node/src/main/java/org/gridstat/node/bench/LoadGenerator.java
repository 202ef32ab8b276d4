package org.gridstat.node.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;

/**
 * Offers status events at a set rate from its own event loop: every tick it writes the frames due
 * and flushes them together, which epoll sends with one sendmmsg call. Long ticks (1 ms) send
 * efficiently in bursts for throughput runs; short ones (100 µs) keep bursts small for latency
 * runs. Each frame carries its send time as source timestamp, for the sink's latency. Several
 * streams (variables, each with its class and latency bound) take turns frame by frame, so each
 * gets an equal share of the rate.
 *
 * <p>Packing batches, with UDP offload, a tick's datagrams of one length (its full batches, and
 * the shorter last) leave as segmented sends (UDP_SEGMENT) of up to 64, which the kernel cuts
 * apart again: what a router sending its runs segmented puts on the wire, at a sender's cost of a
 * system call per run.
 */
final class LoadGenerator implements AutoCloseable {
    /** One variable's stream: its class, and the latency bound stamped as a deadline (0: none). */
    record Stream(long variableId, ServiceClass serviceClass, long latencyBoundNanos) {
    }

    /** Told of every frame written, on the generator's event loop: which stream, and its source time. */
    interface SendObserver {
        void sent(int stream, long sourceTimeNanos);
    }

    private final Channel channel;
    private final Stream[] streams;
    private final long[] sequences;
    private final int payloadBytes;
    private final SendObserver observer;
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private final BatchHeaderWriter batchHeader = new BatchHeaderWriter();
    /** 0: one event per datagram; else events due together are packed into datagrams of at most this many bytes. */
    private final int batchBytes;
    private final int[] lengths = new int[WireFormat.MAX_BATCH_EVENTS];
    private final ByteBuffer headerScratch = ByteBuffer.allocateDirect(BatchHeaderWriter.headerLength(WireFormat.MAX_BATCH_EVENTS));
    private int next;
    private long notWritable;
    /** A tick's equal datagrams go as segmented sends. */
    private final boolean segmenting;
    /** This socket's address, as a segmented send's sender (the transport ignores it: the socket is connected). */
    private final InetSocketAddress local;
    /** Most datagrams in one segmented send: the kernel's UDP_MAX_SEGMENTS on every kernel that has UDP_SEGMENT. */
    private static final int MAX_SEGMENTS = 64;
    /** Most bytes in one segmented send: one UDP datagram's until the kernel cuts it. */
    private static final int MAX_SEGMENTED_BYTES = 65_507;

    LoadGenerator(EventLoopGroup group, InetSocketAddress target, long variableId,
                  int payloadBytes) {
        this(group, target, List.of(new Stream(variableId, ServiceClass.BE, 0)), payloadBytes, (stream, time) -> { });
    }

    LoadGenerator(EventLoopGroup group, InetSocketAddress target, List<Stream> streams, int payloadBytes,
                  SendObserver observer) {
        this(group, target, streams, payloadBytes, observer, 0);
    }

    /** @param batchBytes 0 for one event per datagram, else the largest datagram to pack events due together into */
    LoadGenerator(EventLoopGroup group, InetSocketAddress target, List<Stream> streams, int payloadBytes,
                  SendObserver observer, int batchBytes) {
        this(group, target, streams, payloadBytes, observer, batchBytes, false);
    }

    /** @param udpOffload packing batches, send a tick's equal datagrams segmented where the transport can */
    LoadGenerator(EventLoopGroup group, InetSocketAddress target, List<Stream> streams, int payloadBytes,
                  SendObserver observer, int batchBytes, boolean udpOffload) {
        this.batchBytes = batchBytes;
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("a load generator needs at least one stream");
        }
        this.streams = streams.toArray(new Stream[0]);
        this.sequences = new long[this.streams.length];
        this.payloadBytes = payloadBytes;
        this.observer = observer;
        this.channel = new Bootstrap().group(group).channel(Transports.datagram())
                .option(ChannelOption.SO_SNDBUF, 8 << 20)
                // Pooled buffers with a memory address: Netty 4.2's default (adaptive) buffers make an
                // NIO view per frame, whose garbage would bring GC pauses into the measurement.
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(4 << 20, 16 << 20))
                .handler(new ChannelInboundHandlerAdapter())
                .connect(target).syncUninterruptibly().channel();
        this.local = (InetSocketAddress) channel.localAddress();
        int segment = datagramLength(perDatagram());
        this.segmenting = udpOffload && batchBytes > 0 && channel instanceof EpollDatagramChannel
                && EpollDatagramChannel.isSegmentedDatagramPacketSupported() && 2 * segment <= MAX_SEGMENTED_BYTES;
    }

    /** Sends at {@code rate} events per second for {@code seconds}, catching up after any delay; returns the number sent. */
    long run(double rate, double seconds, long tickMicros) throws InterruptedException {
        return run(rate, seconds, tickMicros, Long.MAX_VALUE);
    }

    /**
     * As {@link #run(double, double, long)}, but a tick sends at most twice its share: what a late
     * tick owes beyond that is skipped, not sent as one burst. Latency runs use this, so that the
     * generator's own scheduling delays do not reach the hop as bursts the hop must queue; the
     * return value tells the rate actually offered.
     */
    long runSmooth(double rate, double seconds, long tickMicros) throws InterruptedException {
        return run(rate, seconds, tickMicros, Math.max(1, (long) Math.ceil(2 * rate * tickMicros / 1e6)));
    }

    private long run(double rate, double seconds, long tickMicros, long maxPerTick) throws InterruptedException {
        long[] sent = new long[1];
        long[] owedSoFar = new long[1]; // sent plus skipped
        CountDownLatch done = new CountDownLatch(1);
        Throwable[] failure = new Throwable[1];
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        ScheduledFuture<?> tick = channel.eventLoop().scheduleAtFixedRate(() -> {
            if (done.getCount() == 0) {
                return;
            }
            try {
                long now = System.nanoTime();
                long due = (long) ((Math.min(now, end) - start) * rate / 1e9);
                long burst = Math.min(due - owedSoFar[0], maxPerTick);
                owedSoFar[0] = Math.max(owedSoFar[0], due - burst);
                for (long i = 0; i < burst; ) {
                    if (!channel.isWritable()) {
                        notWritable++;
                        break;
                    }
                    int n;
                    if (segmenting && burst - i > perDatagram()) {
                        n = writeSegmented(burst - i);
                    } else {
                        n = batchBytes == 0 ? 1 : (int) Math.min(burst - i, perDatagram());
                        channel.write(n == 1 ? frame() : batch(n), channel.voidPromise());
                    }
                    i += n;
                    sent[0] += n;
                    owedSoFar[0] += n;
                }
                channel.flush();
                if (now >= end) {
                    done.countDown();
                }
            } catch (Throwable t) {
                failure[0] = t;
                done.countDown();
            }
        }, 0, tickMicros, TimeUnit.MICROSECONDS);
        try {
            if (!done.await((long) (seconds * 1e3) + 10_000, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the load generator's ticks stopped");
            }
        } finally {
            tick.cancel(false);
        }
        if (failure[0] != null) {
            throw new IllegalStateException("the load generator failed: " + failure[0], failure[0]);
        }
        return sent[0]; // written on the event loop before the latch opened
    }

    private ByteBuf frame() {
        int s = next;
        next = next + 1 == streams.length ? 0 : next + 1;
        Stream stream = streams[s];
        long now = SystemClock.INSTANCE.nanos();
        ByteBuf buf = channel.alloc().directBuffer(48 + payloadBytes);
        ByteBuffer nio = buf.internalNioBuffer(0, 48 + payloadBytes);
        int len = encoder.wrap(nio, nio.position()).variableId(stream.variableId()).sequence(sequences[s]++)
                .sourceTimeNanos(now).serviceClass(stream.serviceClass())
                .deadlineNanos(stream.latencyBoundNanos() == 0 ? WireFormat.NO_DEADLINE : now + stream.latencyBoundNanos())
                .rawPayloadLength(payloadBytes).seal();
        observer.sent(s, now);
        return buf.writerIndex(len);
    }

    /** Events of this generator's size that fit one datagram of {@code batchBytes}. */
    private int perDatagram() {
        int frame = WireFormat.HEADER_LENGTH + payloadBytes;
        return Math.max(1, Math.min(WireFormat.MAX_BATCH_EVENTS,
                (batchBytes - WireFormat.BATCH_HEADER_LENGTH) / (frame + WireFormat.BATCH_LENGTH_ENTRY)));
    }

    /** The length of a datagram of {@code n} events: a lone frame, or a batch. */
    private int datagramLength(int n) {
        int frame = WireFormat.HEADER_LENGTH + payloadBytes;
        return n == 1 ? frame : BatchHeaderWriter.headerLength(n) + n * frame;
    }

    /**
     * Writes up to {@code left} events as one segmented send: full batches, the last maybe shorter,
     * at most {@link #MAX_SEGMENTS} and {@link #MAX_SEGMENTED_BYTES}; returns the events written.
     */
    private int writeSegmented(long left) {
        int per = perDatagram();
        int segment = datagramLength(per);
        int datagrams = (int) Math.min(Math.min(MAX_SEGMENTS, MAX_SEGMENTED_BYTES / segment), (left + per - 1) / per);
        int events = (int) Math.min(left, (long) datagrams * per);
        ByteBuf all = channel.alloc().directBuffer(datagrams * segment);
        for (int written = 0; written < events; ) {
            int n = Math.min(per, events - written);
            if (n == 1) {
                ByteBuf f = frame();
                all.writeBytes(f);
                f.release();
            } else {
                writeBatch(all, n);
            }
            written += n;
        }
        channel.write(new SegmentedDatagramPacket(all, segment, null, local), channel.voidPromise());
        return events;
    }

    /** {@code n} events behind a batch header, in one datagram. */
    private ByteBuf batch(int n) {
        ByteBuf buf = channel.alloc().directBuffer(datagramLength(n));
        writeBatch(buf, n);
        return buf;
    }

    /** Writes {@code n} events behind a batch header into {@code buf}. */
    private void writeBatch(ByteBuf buf, int n) {
        int frame = WireFormat.HEADER_LENGTH + payloadBytes;
        int header = BatchHeaderWriter.headerLength(n);
        for (int i = 0; i < n; i++) {
            lengths[i] = frame;
        }
        batchHeader.write(headerScratch, 0, lengths, n);
        headerScratch.limit(header).position(0);
        buf.writeBytes(headerScratch);
        headerScratch.clear();
        for (int i = 0; i < n; i++) {
            ByteBuf f = frame();
            buf.writeBytes(f);
            f.release();
        }
    }

    /** Whether a tick's equal datagrams go as segmented sends. */
    boolean segmenting() {
        return segmenting;
    }

    /** Ticks on which the socket's buffer was full, so the generator fell behind. */
    long notWritable() {
        return notWritable;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
