package org.gridstat.gateway.device;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.framing.FrameHandler;
import org.gridstat.gateway.c37118.framing.StreamFramer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP client: its commands in through a {@link StreamFramer}, its data switch, and what is
 * queued for it. Data frames come from any thread and are dropped for this client alone when its
 * queue is full. Answers to commands may take the queue past its limit by one answer; while it is
 * past, the client's commands are not read (TCP pushes back on it) and answers to commands already
 * read are dropped, so a client that asks without reading cannot make the server hold more than
 * its limit and one answer.
 */
final class ClientSession extends ChannelInboundHandlerAdapter implements CommandPeer, FrameHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ClientSession.class);
    /** Bytes of garbage in a row, without a single valid frame, after which the client is dropped. */
    static final int GARBAGE_LIMIT = 64 * 1024;

    private final Channel channel;
    private final String peer;
    private final CommandHandler handler;
    private final CounterSet counters;
    private final Consumer<ClientSession> onClosed;
    private final StreamFramer framer = new StreamFramer(this);
    private final PendingBytes pending;
    private final RateLimitedWarning warnings = new RateLimitedWarning();
    private final LongAdder dataSent = new LongAdder();
    private final LongAdder dataDropped = new LongAdder();
    private final InetSocketAddress udpDataTarget;
    private volatile boolean dataOn;
    private long skippedReported;
    private long skippedAtLastFrame;

    /**
     * @param dataOverUdp where data goes instead of this connection, or null; a wildcard host
     *        means this client's own address at that port
     */
    ClientSession(Channel channel, CommandHandler handler, CounterSet counters, int maxPendingBytes,
                  InetSocketAddress dataOverUdp, Consumer<ClientSession> onClosed) {
        this.channel = channel;
        this.peer = "tcp " + channel.remoteAddress();
        this.handler = handler;
        this.counters = counters;
        this.pending = new PendingBytes(maxPendingBytes);
        this.onClosed = onClosed;
        this.udpDataTarget = dataOverUdp == null ? null : targetFor(dataOverUdp, (InetSocketAddress) channel.remoteAddress());
    }

    private static InetSocketAddress targetFor(InetSocketAddress configured, InetSocketAddress client) {
        if (configured.getAddress() != null && configured.getAddress().isAnyLocalAddress() && client != null) {
            return new InetSocketAddress(client.getAddress(), configured.getPort());
        }
        return configured;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            for (ByteBuffer b : in.nioBuffers()) {
                framer.accept(b);
            }
        } finally {
            in.release();
        }
        long skipped = framer.bytesSkipped();
        counters.bytesSkipped.add(skipped - skippedReported);
        skippedReported = skipped;
        if (skipped - skippedAtLastFrame > GARBAGE_LIMIT && channel.isOpen()) {
            counters.connectionsClosedForGarbage.increment();
            LOG.warn("{}: closed after {} bytes without a valid frame", peer, skipped - skippedAtLastFrame);
            channel.close();
        }
    }

    @Override
    public void onFrame(FrameType type, ByteBuffer buffer, int offset, int length) {
        skippedAtLastFrame = framer.bytesSkipped();
        CommandFrame c = handler.accept(buffer, offset, length, peer, warnings);
        if (c != null) {
            handler.execute(c, this);
        }
    }

    @Override
    public void onReject(FrameReject reason, int bytes) {
        if (reason != FrameReject.BAD_SYNC) {
            counters.refusedBadFrame.increment();
            warnings.warn(LOG, peer, "dropped a damaged frame: " + reason.description());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pending.get() > pending.limit() && channel.config().isAutoRead()) {
            channel.config().setAutoRead(false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        dataOn = false;
        onClosed.accept(this);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("{}: closing after {}", peer, cause.toString());
        ctx.close();
    }

    /** Queues a data frame for this client if it fits; any thread. The caller keeps its reference. */
    boolean sendData(ByteBuf frame) {
        int size = frame.readableBytes();
        if (!pending.tryAdd(size)) {
            dataDropped.increment();
            counters.dataFramesDropped.increment();
            return false;
        }
        dataSent.increment();
        counters.dataFramesSent.increment();
        channel.writeAndFlush(frame.retainedDuplicate()).addListener(f -> written(size));
        return true;
    }

    /**
     * Queues an answer unless answers alone have already filled the queue past its limit (data
     * never does: it is admitted only below it). A client that asks without reading loses answers
     * rather than the server holding them; one that reads slowly has its commands read slower.
     */
    @Override
    public boolean answer(byte[] frame, LongAdder sent) {
        if (pending.get() > pending.limit()) {
            counters.answersDropped.increment();
            warnings.warn(LOG, peer, "dropped an answer: the client is not reading what it asked for");
            return false;
        }
        pending.add(frame.length);
        sent.increment();
        channel.writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(f -> written(frame.length));
        return true;
    }

    /** Runs on the I/O thread when a write completes or fails. */
    private void written(int size) {
        long left = pending.remove(size);
        if (left <= pending.limit() / 2 && !channel.config().isAutoRead() && channel.isOpen()) {
            channel.config().setAutoRead(true);
        }
    }

    @Override
    public void data(boolean on) {
        dataOn = on;
    }

    boolean dataOn() {
        return dataOn;
    }

    /** Where this client's data goes when the server sends TCP clients' data over UDP. */
    InetSocketAddress udpDataTarget() {
        return udpDataTarget;
    }

    void countUdpData(boolean sent) {
        (sent ? dataSent : dataDropped).increment();
    }

    @Override
    public int maxFrameSize() {
        return CommonHeader.MAX_FRAME_SIZE;
    }

    @Override
    public String describe() {
        return peer;
    }

    @Override
    public RateLimitedWarning warnings() {
        return warnings;
    }

    Channel channel() {
        return channel;
    }

    ServerCounters.ClientCounters counters() {
        InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
        return new ServerCounters.ClientCounters(remote, "tcp", dataOn, dataSent.sum(), dataDropped.sum(),
                pending.get(), pending.peak());
    }
}
