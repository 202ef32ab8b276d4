package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data port read through a Netty datagram channel (the NIO transport, and tests on embedded
 * channels): copies each datagram into its {@link FrameIntake} and releases Netty's buffer at
 * once. Under epoll the router reads its sockets with {@link EpollIngressSocket} instead, which
 * allocates nothing per datagram; Netty's channels make a {@link DatagramPacket} for each.
 */
final class IngressHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngressHandler.class);

    private final FrameIntake intake;

    IngressHandler(FrameIntake intake) {
        this.intake = intake;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf content;
        if (msg instanceof DatagramPacket) {
            content = ((DatagramPacket) msg).content();
        } else if (msg instanceof ByteBuf) {
            content = (ByteBuf) msg;
        } else {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            int length = content.readableBytes();
            if (length > FrameIntake.DATAGRAM_BUFFER) {
                intake.oversize();
            } else {
                content.getBytes(content.readerIndex(), intake.slotsBuf(), intake.slotOffset(), length);
                intake.accept(length);
            }
        } finally {
            content.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        intake.readComplete();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        intake.receiveError();
        LOG.debug("data port error on {}", ctx.channel(), cause);
    }
}
