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
 *
 * <p>The unconnected data socket delivers {@link DatagramPacket}s; sockets connected to a known
 * neighbour deliver bare buffers, which Netty reads without allocating a packet or an address.
 */
final class IngressHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngressHandler.class);

    private final DataPath dataPath;
    private final DataPathCounters counters;
    private final StatusEventDecoder decoder = new StatusEventDecoder();
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    /**
     * Frames are validated in a copy: Netty 4.2's pooled buffers make a new NIO view per
     * {@code internalNioBuffer} call, while copying at most 1,472 bytes into this array allocates
     * nothing. Only the hop count and the checksum are written back into the pooled buffer.
     */
    private final byte[] scratch = new byte[WireFormat.MAX_FRAME_LENGTH];
    private final ByteBuffer view = ByteBuffer.wrap(scratch);
    private int undrained;

    IngressHandler(DataPath dataPath, DataPathCounters counters) {
        this.dataPath = dataPath;
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                counters.received();
                accept(frame);
            } finally {
                frame.release();
            }
        } else if (msg instanceof DatagramPacket) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                counters.received();
                accept(packet.content());
            } finally {
                packet.release();
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void accept(ByteBuf content) {
        int length = content.readableBytes();
        if (length > WireFormat.MAX_FRAME_LENGTH) {
            counters.dropped(RejectReason.OVERSIZE);
            return;
        }
        int at = content.readerIndex();
        content.getBytes(at, scratch, 0, length);
        RejectReason reason = decoder.wrap(view, 0, length);
        if (reason != RejectReason.NONE) {
            counters.dropped(reason);
            return;
        }
        int hops = decoder.hopCount();
        if (hops >= WireFormat.MAX_HOP_COUNT) {
            counters.dropped(RejectReason.HOP_LIMIT);
            return;
        }
        encoder.wrapExisting(view, 0).hopCount(hops + 1).seal();
        content.setByte(at + WireFormat.HOP_COUNT_OFFSET, hops + 1);
        content.setInt(at + WireFormat.CHECKSUM_OFFSET, view.getInt(WireFormat.CHECKSUM_OFFSET));
        if (dataPath.inLoop()) {
            if (dataPath.forward(content, decoder.variableId(), decoder.sourceTimeNanos(), decoder.deadlineNanos()) < 0) {
                counters.dropped(RejectReason.UNKNOWN_VARIABLE);
            } else if (++undrained == DataPath.DRAIN_BATCH) {
                undrained = 0;
                dataPath.drainTouched();
            }
        } else if (!dataPath.handOff(content.retain())) {
            counters.handoffDropped();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (undrained > 0) {
            undrained = 0;
            dataPath.drainTouched();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.receiveError();
        LOG.debug("data port error on {}", ctx.channel(), cause);
    }
}
