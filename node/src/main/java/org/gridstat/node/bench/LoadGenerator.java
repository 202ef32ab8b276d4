package org.gridstat.node.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.StatusEventEncoder;

/**
 * Offers status events at a set rate from its own event loop: every tick it writes the frames due
 * and flushes them together, which epoll sends with one sendmmsg call. Long ticks (1 ms) send
 * efficiently in bursts for throughput runs; short ones (100 µs) keep bursts small for latency
 * runs. Each frame carries its send time as source timestamp, for the sink's latency.
 */
final class LoadGenerator implements AutoCloseable {
    private final Channel channel;
    private final long variableId;
    private final int payloadBytes;
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private long sequence;
    private long notWritable;

    LoadGenerator(EventLoopGroup group, InetSocketAddress target, long variableId,
                  int payloadBytes) {
        this.variableId = variableId;
        this.payloadBytes = payloadBytes;
        this.channel = new Bootstrap().group(group).channel(Transports.datagram())
                .option(ChannelOption.SO_SNDBUF, 8 << 20)
                // Pooled buffers with a memory address: Netty 4.2's default (adaptive) buffers make an
                // NIO view per frame, whose garbage would bring GC pauses into the measurement.
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(4 << 20, 16 << 20))
                .handler(new ChannelInboundHandlerAdapter())
                .connect(target).syncUninterruptibly().channel();
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
                for (long i = 0; i < burst; i++) {
                    if (!channel.isWritable()) {
                        notWritable++;
                        break;
                    }
                    channel.write(frame(), channel.voidPromise());
                    sent[0]++;
                    owedSoFar[0]++;
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
        ByteBuf buf = channel.alloc().directBuffer(48 + payloadBytes);
        ByteBuffer nio = buf.internalNioBuffer(0, 48 + payloadBytes);
        int len = encoder.wrap(nio, nio.position()).variableId(variableId).sequence(sequence++)
                .sourceTimeNanos(SystemClock.INSTANCE.nanos()).serviceClass(ServiceClass.BE)
                .rawPayloadLength(payloadBytes).seal();
        return buf.writerIndex(len);
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
