package org.gridstat.node.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.WireFormat;

/** Receives the bench traffic: counts frames and records source-to-sink latency in nanoseconds. */
final class CountingSink implements AutoCloseable {
    private final Channel channel;
    private final AtomicLong received = new AtomicLong();
    private final SingleWriterRecorder latency = new SingleWriterRecorder(10_000_000_000L, 3);
    private Histogram interval;

    CountingSink(EventLoopGroup group, int port) {
        this.channel = new Bootstrap().group(group).channel(Transports.datagram())
                .option(ChannelOption.SO_RCVBUF, 8 << 20)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(2048))
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                        ByteBuf b = p.content();
                        if (b.readableBytes() >= WireFormat.HEADER_LENGTH) {
                            long sent = b.getLong(b.readerIndex() + WireFormat.SOURCE_TIME_OFFSET);
                            latency.recordValue(Math.max(0, Math.min(10_000_000_000L, SystemClock.INSTANCE.nanos() - sent)));
                        }
                        received.incrementAndGet();
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
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
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
