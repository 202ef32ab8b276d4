package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.net.InetSocketAddress;

/**
 * One segmented send (UDP_SEGMENT) as the epoll transport takes it: several datagrams of one
 * length back to back, the last maybe shorter, which the kernel cuts apart again. Reused: the
 * transport releases a message once it is written or has failed, and the release that frees the
 * datagrams gives this message back to its {@link Pool}, so a send allocates nothing once the pool
 * holds as many messages as a link has in flight. No recipient: the socket is connected, and the
 * kernel sends on the connected route (a recipient would make each send look the route up); the
 * sender, which the transport ignores, is the socket's own address.
 */
final class SegmentedSend extends SegmentedDatagramPacket {
    private final Pool pool;
    private ByteBuf segments;
    private int segmentSize;

    private SegmentedSend(Pool pool, InetSocketAddress sender) {
        super(Unpooled.EMPTY_BUFFER, 1, null, sender);
        this.pool = pool;
    }

    @Override
    public ByteBuf content() {
        return segments == null ? Unpooled.EMPTY_BUFFER : segments;
    }

    @Override
    public int segmentSize() {
        return segmentSize;
    }

    @Override
    public int refCnt() {
        return segments == null ? 0 : segments.refCnt();
    }

    @Override
    public SegmentedSend retain() {
        segments.retain();
        return this;
    }

    @Override
    public SegmentedSend retain(int increment) {
        segments.retain(increment);
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        boolean freed = segments.release(decrement);
        if (freed) {
            segments = null;
            pool.give(this);
        }
        return freed;
    }

    @Override
    public SegmentedSend touch() {
        segments.touch();
        return this;
    }

    @Override
    public SegmentedSend touch(Object hint) {
        segments.touch(hint);
        return this;
    }

    /** A message of its own for {@code content}: this one goes back to the pool and cannot be kept. */
    @Override
    public SegmentedDatagramPacket replace(ByteBuf content) {
        return new SegmentedDatagramPacket(content, segmentSize, recipient(), sender());
    }

    /** The messages of one socket, taken and given back on its event loop only. */
    static final class Pool {
        private final InetSocketAddress sender;
        private SegmentedSend[] free = new SegmentedSend[4];
        private int count;

        Pool(InetSocketAddress sender) {
            this.sender = sender;
        }

        /** A message carrying {@code segments} (taking over the caller's reference), cut every {@code segmentSize} bytes. */
        SegmentedSend take(ByteBuf segments, int segmentSize) {
            SegmentedSend m = count > 0 ? free[--count] : new SegmentedSend(this, sender);
            free[count] = null;
            m.segments = segments;
            m.segmentSize = segmentSize;
            return m;
        }

        private void give(SegmentedSend m) {
            if (count == free.length) {
                free = java.util.Arrays.copyOf(free, count * 2);
            }
            free[count++] = m;
        }

        /** Messages waiting to be taken again. */
        int idle() {
            return count;
        }
    }
}
