package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.WireFormat;
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
 *
 * <p>With the neighbour's priority port configured, the link has a second socket connected to it:
 * frames whose header says HRT or LRT go there, best effort to the data port, so at the next hop a
 * best-effort backlog in the kernel cannot hold them back. A flow's frames all carry one class,
 * so each flow still arrives in order. Handles both sockets' events.
 */
@ChannelHandler.Sharable
final class LinkTransmitter extends ChannelInboundHandlerAdapter implements Transmitter<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(LinkTransmitter.class);

    final OutLinkConfig config;
    private final int index;
    private final DataPath dataPath;
    private Channel channel;
    private Channel priority;
    private boolean wrote;
    private boolean wrotePriority;

    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath) {
        this.config = config;
        this.index = index;
        this.dataPath = dataPath;
    }

    void attach(Channel channel) {
        attach(channel, null);
    }

    /** @param priority the socket connected to the neighbour's priority port, or {@code null} */
    void attach(Channel channel, Channel priority) {
        this.channel = channel;
        this.priority = priority;
    }

    @Override
    public boolean writable() {
        return ready(channel) && (priority == null || ready(priority));
    }

    private static boolean ready(Channel ch) {
        return ch != null && ch.isActive() && ch.isWritable();
    }

    @Override
    public void write(ByteBuf event) {
        if (priority != null && event.getByte(event.readerIndex() + WireFormat.SERVICE_CLASS_OFFSET) != BEST_EFFORT) {
            priority.write(event, priority.voidPromise());
            wrotePriority = true;
        } else {
            channel.write(event, channel.voidPromise());
            wrote = true;
        }
    }

    private static final byte BEST_EFFORT = (byte) ServiceClass.BE.code();

    @Override
    public void flush() {
        if (wrotePriority) {
            wrotePriority = false;
            priority.flush();
        }
        if (wrote) {
            wrote = false;
            channel.flush();
        }
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
