package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import java.nio.ByteBuffer;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data port's receiving side: validates each datagram where it lies, stamps the next hop
 * count and hands the frame to the data path, which queues one reference per out-link. Every drop
 * is counted by reason; nothing is thrown into the pipeline and the channel stays open whatever
 * arrives. One instance per ingress channel, confined to its event loop.
 */
final class IngressHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngressHandler.class);

    private final DataPath dataPath;
    private final DataPathCounters counters;
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private int undrained;

    IngressHandler(DataPath dataPath, DataPathCounters counters) {
        this.dataPath = dataPath;
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
            accept(packet.content());
        } finally {
            packet.release();
        }
    }

    private void accept(ByteBuf content) {
        int length = content.readableBytes();
        if (length > WireFormat.MAX_FRAME_LENGTH) {
            counters.dropped(RejectReason.OVERSIZE);
            return;
        }
        if (content.nioBufferCount() != 1) {
            counters.dropped(RejectReason.TRUNCATED); // never from a datagram read; refuse rather than copy
            return;
        }
        ByteBuffer nio = content.internalNioBuffer(content.readerIndex(), length);
        int offset = nio.position();
        RejectReason reason = decoder.wrap(nio, offset, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        int hops = decoder.hopCount();
        if (hops >= WireFormat.MAX_HOP_COUNT) {
            counters.dropped(RejectReason.HOP_LIMIT);
            return;
        }
        encoder.wrapExisting(nio, offset).hopCount(hops + 1).seal();
        if (dataPath.inLoop()) {
            if (dataPath.forward(content, decoder.variableId(), decoder.sourceTimeNanos(), decoder.deadlineNanos()) < 0) {
                counters.dropped(RejectReason.UNKNOWN_VARIABLE);
            } else if (++undrained == DataPath.DRAIN_BATCH) {
                undrained = 0;
                dataPath.drainAll();
            }
        } else if (!dataPath.handOff(content.retain())) {
            counters.handoffDropped();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (undrained > 0) {
            undrained = 0;
            dataPath.drainAll();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.receiveError();
        LOG.debug("data port error on {}", ctx.channel(), cause);
    }
}
