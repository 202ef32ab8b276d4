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
 *
 * <p>With UDP offload, under epoll, the datagrams a flush holds for one lane leave in
 * {@link SegmentRun}s: consecutive datagrams of one length (a full batch's, say), the last maybe
 * shorter, as one segmented send that the kernel cuts apart again, in their order. Nothing waits
 * for a run: it holds only what the flush has. Not on a link the kernel shapes, whose classifier
 * must see each datagram; and if the kernel refuses a segmented send (a path whose MTU is below
 * the link's datagrams, a device without checksum offload), the link says so once and sends each
 * datagram on its own from then on.
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
    /** Whether the link may send segmented (settings and link kind); {@link #segmenting} once the sockets can. */
    private final boolean udpOffload;
    private boolean segmenting;
    /** Each lane's run, while segmenting; its sink and messages. */
    private final SegmentRun[] runs = new SegmentRun[2];
    private final SegmentedSends[] sinks = new SegmentedSends[2];

    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath) {
        this(config, index, dataPath, false, false);
    }

    /**
     * @param oneEventPerDatagram never pack events: a link the kernel shapes steers each datagram
     *                            to its flow's class by the one event it carries
     * @param udpOffload          send runs of datagrams segmented where the sockets can (not with
     *                            {@code oneEventPerDatagram}: the kernel's classifier must see each)
     */
    LinkTransmitter(OutLinkConfig config, int index, DataPath dataPath, boolean oneEventPerDatagram, boolean udpOffload) {
        this.udpOffload = udpOffload && !oneEventPerDatagram;
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
        attach(channel, priority, udpOffload && SegmentedSends.supported(channel)
                && (priority == null || SegmentedSends.supported(priority)));
    }

    /** As {@link #attach(Channel, Channel)}, sending segmented runs if {@code segmenting}, whatever the channels. */
    void attach(Channel channel, Channel priority, boolean segmenting) {
        this.channel = channel;
        this.priority = priority;
        this.segmenting = segmenting;
        if (segmenting) {
            runs[DATA] = new SegmentRun(allocator);
            sinks[DATA] = new SegmentedSends(channel);
            if (priority != null) {
                runs[PRIORITY] = new SegmentRun(allocator);
                sinks[PRIORITY] = new SegmentedSends(priority);
            }
        }
    }

    /** Whether runs of datagrams leave as segmented sends. */
    boolean segmenting() {
        return segmenting;
    }

    /** Segmented sends of several datagrams so far; on the data-path loop. */
    long segmentedSends() {
        long n = 0;
        for (SegmentedSends s : sinks) {
            n += s == null ? 0 : s.sent();
        }
        return n;
    }

    /** Each lane's sink of runs, or {@code null}: for tests. */
    SegmentedSends sink(int lane) {
        return sinks[lane];
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
        if (ch == priority) {
            wrotePriority = true;
        } else {
            wrote = true;
        }
        if (!segmenting) {
            ch.write(datagram(), ch.voidPromise());
            return;
        }
        SegmentRun run = runs[lane];
        int size = count == 1 ? lengths[0] : BatchHeaderWriter.headerLength(count) + packedBytes;
        if (!run.takes(size)) {
            run.sendTo(sinks[lane]);
        }
        if (run.isEmpty()) {
            run.start(datagram());
        } else {
            writePacked(run.extend(size));
        }
        if (run.full()) {
            run.sendTo(sinks[lane]);
        }
    }

    /** The datagram written since the last end, in a buffer of its own: a lone event is its own. */
    private ByteBuf datagram() {
        if (count == 1) {
            ByteBuf lone = packed[0];
            packed[0] = null;
            count = 0;
            packedBytes = 0;
            return lone;
        }
        int size = BatchHeaderWriter.headerLength(count) + packedBytes; // exactly: a small batch holds no mtu's worth in the socket's queue
        ByteBuf datagram = allocator.directBuffer(size, size);
        writePacked(datagram);
        return datagram;
    }

    /** Writes the datagram written since the last end into {@code into}: a batch's header, then the events, given back. */
    private void writePacked(ByteBuf into) {
        if (count > 1) {
            int headerLength = headerWriter.write(header, 0, lengths, count);
            header.limit(headerLength).position(0);
            into.writeBytes(header);
            header.clear();
        }
        for (int i = 0; i < count; i++) {
            ByteBuf e = packed[i];
            into.writeBytes(e, e.readerIndex(), lengths[i]);
            e.release();
            packed[i] = null;
        }
        count = 0;
        packedBytes = 0;
    }

    @Override
    public void flush() {
        endDatagram();
        for (int l = 0; l < runs.length; l++) {
            if (runs[l] != null) {
                runs[l].sendTo(sinks[l]);
            }
        }
        if (wrotePriority) {
            wrotePriority = false;
            priority.flush();
        }
        if (wrote) {
            wrote = false;
            channel.flush();
        }
    }

    /** Gives back the events of a datagram not yet ended, and the runs not yet sent; when the link closes, on the data-path loop. */
    void discard() {
        for (int i = 0; i < count; i++) {
            packed[i].release();
            packed[i] = null;
        }
        count = 0;
        packedBytes = 0;
        for (SegmentRun run : runs) {
            if (run != null) {
                run.discard();
            }
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
        if (segmenting && SegmentedSends.refused(cause)) {
            for (int l = 0; l < runs.length; l++) { // ahead of what follows, in order (a flush sent them already)
                if (runs[l] != null) {
                    runs[l].sendTo(sinks[l]);
                }
            }
            segmenting = false;
            LOG.warn("link {}: the kernel refused a segmented send ({}); its datagrams go one by one from now on",
                    config.name, cause.getMessage());
        }
    }
}
