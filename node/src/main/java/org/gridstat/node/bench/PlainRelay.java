package org.gridstat.node.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;

/**
 * The baseline: a Netty UDP relay with no validation, no scheduling and no filtering, forwarding
 * each datagram to one destination, flushed per read batch.
 */
final class PlainRelay implements AutoCloseable {
    private final Channel channel;

    /** @param datagramBytes the largest datagram it relays (Netty reads each into a buffer of this size) */
    PlainRelay(EventLoopGroup group, int port, InetSocketAddress destination, int datagramBytes) {
        this.channel = new Bootstrap().group(group).channel(Transports.datagram())
                .option(ChannelOption.SO_RCVBUF, 8 << 20)
                .option(ChannelOption.SO_SNDBUF, 8 << 20)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(datagramBytes))
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        DatagramPacket p = (DatagramPacket) msg;
                        ctx.write(new DatagramPacket(p.content(), destination), ctx.voidPromise());
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        ctx.flush();
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }
}
