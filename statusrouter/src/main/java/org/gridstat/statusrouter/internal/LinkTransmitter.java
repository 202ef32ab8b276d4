package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.egress.Transmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One out-link's UDP socket, connected to its neighbour, as the {@link Transmitter} of the link's
 * {@link EgressPump}: writes are batched until the pump flushes (sendmmsg under epoll). A full
 * socket buffer makes it unwritable, which pauses the pump; when it drains, the data path is told.
 * Send failures (a neighbour's port closed) are counted by the pump; the link stays. Runs on the
 * data-path event loop only.
 */
final class LinkTransmitter extends ChannelInboundHandlerAdapter implements Transmitter<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(LinkTransmitter.class);

    final OutLinkConfig config;
    private final int index;
    private final DataPath dataPath;
    private Channel channel;

    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath) {
        this.config = config;
        this.index = index;
        this.dataPath = dataPath;
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    @Override
    public boolean writable() {
        Channel ch = channel;
        return ch != null && ch.isActive() && ch.isWritable();
    }

    @Override
    public void write(ByteBuf event) {
        channel.write(event, channel.voidPromise());
    }

    @Override
    public void flush() {
        channel.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            dataPath.linkWritable(index);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        dataPath.sendFailed(index);
        LOG.debug("link {}: {}", config.name, cause.toString());
    }
}
