package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.unix.Errors;
import java.net.InetSocketAddress;

/**
 * One lane's socket as the place its {@link SegmentRun}s go: a lone datagram is written as it is,
 * several as one {@link SegmentedSend}. Written, not flushed: the link flushes.
 */
final class SegmentedSends implements SegmentRun.Sink {
    /** errno values of a segmented send the kernel will not take on this socket (negated, as Netty reports them). */
    private static final int EINVAL = -22;
    private static final int EIO = -5;
    private static final int EMSGSIZE = -90;

    private final Channel channel;
    private final SegmentedSend.Pool messages;
    private long sent;

    SegmentedSends(Channel channel) {
        this.channel = channel;
        this.messages = new SegmentedSend.Pool(channel.localAddress() instanceof InetSocketAddress a ? a
                : new InetSocketAddress(0));
    }

    /** Whether {@code channel} takes segmented sends: an epoll datagram channel, on a kernel with UDP_SEGMENT. */
    static boolean supported(Channel channel) {
        return channel instanceof EpollDatagramChannel && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
    }

    /**
     * Whether a send failed as a segmented send does where the socket cannot segment: EMSGSIZE
     * (the path's MTU is below a segment and its headers, on kernels since 2025; plain sends of the
     * same datagrams are fragmented and go), EINVAL (the same on older kernels, or a socket that
     * sends without checksums) or EIO (a device that cannot checksum what it sends, or IPsec).
     */
    static boolean refused(Throwable cause) {
        return cause instanceof Errors.NativeIoException e
                && (e.expectedErr() == EINVAL || e.expectedErr() == EIO || e.expectedErr() == EMSGSIZE);
    }

    @Override
    public void send(ByteBuf datagram) {
        channel.write(datagram, channel.voidPromise());
    }

    @Override
    public void sendSegments(ByteBuf segments, int segmentSize) {
        sent++;
        channel.write(messages.take(segments, segmentSize), channel.voidPromise());
    }

    /** Segmented sends written so far. */
    long sent() {
        return sent;
    }

    /** Messages back from the transport, ready to be taken again. */
    int idleMessages() {
        return messages.idle();
    }
}
