package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.gridstat.core.forward.ForwardingTable;
import org.gridstat.core.forward.Route;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates each datagram where it lies, asks the forwarding table for its out-links, stamps the
 * next hop count and sends one copy per out-link. Every drop is counted by reason; nothing is
 * thrown into the pipeline and the channel stays open whatever arrives. One instance per channel,
 * so the decoder, encoder and counters are confined to that channel's event loop.
 */
final class ForwardingHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ForwardingHandler.class);

    private final ForwardingTable table;
    private final InetSocketAddress[] outLinks;
    private final DataPathCounters counters;
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private boolean pendingFlush;

    ForwardingHandler(ForwardingTable table, InetSocketAddress[] outLinks, DataPathCounters counters) {
        this.table = table;
        this.outLinks = outLinks;
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket)) {
            ctx.fireChannelRead(msg);
            return;
        }
        DatagramPacket packet = (DatagramPacket) msg;
        try {
            counters.received();
            forward(ctx, packet.content());
        } finally {
            packet.release();
        }
    }

    private void forward(ChannelHandlerContext ctx, ByteBuf content) {
        int length = content.readableBytes();
        if (length > WireFormat.MAX_FRAME_LENGTH) {
            counters.dropped(RejectReason.OVERSIZE);
            return;
        }
        if (content.nioBufferCount() != 1) {
            // Composite buffers never come from a datagram read; refuse rather than copy.
            counters.dropped(RejectReason.TRUNCATED);
            return;
        }
        ByteBuffer nio = content.internalNioBuffer(content.readerIndex(), length);
        int offset = nio.position();
        RejectReason reason = decoder.wrap(nio, offset, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        Route route = table.route(decoder.variableId());
        if (route == null) {
            counters.dropped(RejectReason.UNKNOWN_VARIABLE);
            return;
        }
        int hops = decoder.hopCount();
        if (hops >= WireFormat.MAX_HOP_COUNT) {
            counters.dropped(RejectReason.HOP_LIMIT);
            return;
        }
        encoder.wrapExisting(nio, offset).hopCount(hops + 1).seal();
        int copies = route.outLinkCount();
        for (int i = 0; i < copies; i++) {
            ctx.write(new DatagramPacket(content.retainedDuplicate(), outLinks[route.outLink(i)]), ctx.voidPromise());
        }
        counters.forwarded(copies);
        pendingFlush = true;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pendingFlush) {
            pendingFlush = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    /** Send failures surface here through the void promise; count them and keep the channel open. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.sendError();
        LOG.debug("data plane error on {}", ctx.channel(), cause);
    }
}
