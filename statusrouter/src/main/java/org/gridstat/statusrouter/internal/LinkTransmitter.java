package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.egress.Transmitter;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One out-link's UDP socket, connected to its neighbour, as the {@link Transmitter} of the link's
 * {@link EgressPump}. The pump says which events share a datagram: a lone event is written as it
 * is, several are copied behind a batch header into one pooled buffer. Datagrams are batched
 * until the pump flushes (sendmmsg under epoll). A full socket buffer makes it unwritable, which
 * pauses the pump; when it drains, the data path is told. Send failures (a neighbour's port closed)
 * are counted by the pump; the link stays. Runs on the data-path event loop only.
 *
 * <p>With the neighbour's priority port configured, the link has a second socket connected to it,
 * a lane of its own: flows of class HRT and LRT (and control traffic) go there, best effort to the
 * data port, so at the next hop a best-effort backlog in the kernel cannot hold them back. The
 * lane follows the flow's class as the scheduler has it, never a class a sender wrote in the
 * header, so each flow keeps to one socket and arrives in order. The link pauses while either
 * socket is full: what the scheduler releases next may be for either lane.
 */
@ChannelHandler.Sharable
final class LinkTransmitter extends ChannelInboundHandlerAdapter implements Transmitter<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(LinkTransmitter.class);
    private static final int DATA = 0;
    private static final int PRIORITY = 1;

    final OutLinkConfig config;
    private final int index;
    private final DataPath dataPath;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final BatchHeaderWriter headerWriter = new BatchHeaderWriter();
    /** The datagram being built: its events and their lengths, and its lane. */
    private final ByteBuf[] packed;
    private final int[] lengths;
    private final ByteBuffer header;
    private int count;
    private int packedBytes;
    private int lane;
    private Channel channel;
    private Channel priority;
    private boolean wrote;
    private boolean wrotePriority;

    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath) {
        this(config, index, dataPath, false);
    }

    /**
     * @param oneEventPerDatagram never pack events: a link the kernel shapes steers each datagram
     *                            to its flow's class by the one event it carries
     */
    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath, boolean oneEventPerDatagram) {
        this.config = config;
        this.index = index;
        this.dataPath = dataPath;
        int most = oneEventPerDatagram ? 1 : Math.min(WireFormat.MAX_BATCH_EVENTS,
                (config.mtu - WireFormat.BATCH_HEADER_LENGTH) / (WireFormat.HEADER_LENGTH + WireFormat.BATCH_LENGTH_ENTRY));
        this.packed = new ByteBuf[Math.max(1, most)];
        this.lengths = new int[packed.length];
        this.header = ByteBuffer.allocateDirect(BatchHeaderWriter.headerLength(packed.length));
    }

    void attach(Channel channel) {
        attach(channel, null);
    }

    /** @param priority the socket connected to the neighbour's priority port, or {@code null} */
    void attach(Channel channel, Channel priority) {
        this.channel = channel;
        this.priority = priority;
    }

    /**
     * Whether the pump may go on: while both sockets have room. A socket that filled up still takes
     * the datagram the pump already holds (its high-water mark is soft); the pump is told when it
     * drains.
     */
    @Override
    public boolean writable() {
        return ready(channel) && (priority == null || ready(priority));
    }

    private static boolean ready(Channel ch) {
        return ch != null && ch.isActive() && ch.isWritable();
    }

    @Override
    public int lane(ServiceClass flowClass) {
        return priority != null && flowClass != ServiceClass.BE ? PRIORITY : DATA;
    }

    @Override
    public void write(ByteBuf event) {
        write(event, DATA);
    }

    @Override
    public void write(ByteBuf event, int lane) {
        if (count == packed.length) { // the pump packs to the MTU; this guards the array all the same
            endDatagram();
        }
        this.lane = lane;
        int length = event.readableBytes();
        packed[count] = event;
        lengths[count++] = length;
        packedBytes += length;
    }

    @Override
    public void endDatagram() {
        if (count == 0) {
            return;
        }
        Channel ch = lane == PRIORITY ? priority : channel;
        ByteBuf datagram;
        if (count == 1) {
            datagram = packed[0];
        } else {
            int headerLength = headerWriter.write(header, 0, lengths, count);
            int size = headerLength + packedBytes; // exactly: a small batch holds no mtu's worth in the socket's queue
            datagram = allocator.directBuffer(size, size);
            header.limit(headerLength).position(0);
            datagram.writeBytes(header);
            header.clear();
            for (int i = 0; i < count; i++) {
                ByteBuf e = packed[i];
                datagram.writeBytes(e, e.readerIndex(), lengths[i]);
                e.release();
            }
        }
        java.util.Arrays.fill(packed, 0, count, null);
        count = 0;
        packedBytes = 0;
        if (ch == priority) {
            wrotePriority = true;
        } else {
            wrote = true;
        }
        ch.write(datagram, ch.voidPromise());
    }

    @Override
    public void flush() {
        endDatagram();
        if (wrotePriority) {
            wrotePriority = false;
            priority.flush();
        }
        if (wrote) {
            wrote = false;
            channel.flush();
        }
    }

    /** Gives back the events of a datagram not yet ended; when the link closes, on the data-path loop. */
    void discard() {
        for (int i = 0; i < count; i++) {
            packed[i].release();
            packed[i] = null;
        }
        count = 0;
        packedBytes = 0;
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
