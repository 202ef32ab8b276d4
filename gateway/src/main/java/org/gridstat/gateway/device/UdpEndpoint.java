package org.gridstat.gateway.device;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import org.gridstat.core.time.Clock;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's UDP socket: command datagrams in, each from a peer known by its address; data and
 * answers out as one frame per datagram, to peers, to the spontaneous address and to TCP clients
 * whose data goes by UDP. One queue limit for the socket: a datagram that does not fit is dropped.
 */
final class UdpEndpoint extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LoggerFactory.getLogger(UdpEndpoint.class);
    /** The largest UDP payload over IPv4. */
    static final int MAX_DATAGRAM = 65_507;

    private final CommandHandler handler;
    private final CounterSet counters;
    private final ClientSlots slots;
    private final Clock clock;
    private final long idleNanos;
    private final PendingBytes pending;
    private final ConcurrentMap<InetSocketAddress, UdpPeer> peers = new ConcurrentHashMap<>();
    /** Shared by senders not registered: one noisy stranger costs one log line a second in all. */
    private final RateLimitedWarning strangers = new RateLimitedWarning();
    private final boolean commands;
    private volatile Channel channel;

    /** @param commands whether to obey commands; false for a socket that only sends */
    UdpEndpoint(boolean commands, CommandHandler handler, CounterSet counters, ClientSlots slots, Clock clock,
                Duration idleTimeout, int maxPendingBytes) {
        super(false);
        this.commands = commands;
        this.handler = handler;
        this.counters = counters;
        this.slots = slots;
        this.clock = clock;
        this.idleNanos = idleTimeout.toNanos();
        this.pending = new PendingBytes(maxPendingBytes);
    }

    void bound(Channel channel) {
        this.channel = channel;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        try {
            if (!commands) {
                counters.framesIgnored.increment();
                return;
            }
            InetSocketAddress sender = packet.sender();
            ByteBuffer b = packet.content().nioBuffer();
            UdpPeer known = peers.get(sender);
            String who = known != null ? known.describe() : "udp " + sender;
            CommandFrame c = handler.accept(b, b.position(), b.remaining(), who, known != null ? known.warnings() : strangers);
            if (c == null) {
                return;
            }
            UdpPeer peer = known != null ? known : register(sender);
            if (peer == null) {
                return;
            }
            peer.heard(clock.nanos());
            handler.execute(c, peer);
        } finally {
            packet.release();
        }
    }

    private UdpPeer register(InetSocketAddress sender) {
        if (!slots.take()) {
            counters.connectionsRefused.increment();
            strangers.warn(LOG, "udp " + sender, "refused: the server has its maximum of clients");
            return null;
        }
        UdpPeer peer = new UdpPeer(sender, this, clock.nanos());
        peers.put(sender, peer);
        counters.udpPeersRegistered.increment();
        LOG.info("{}: registered", peer.describe());
        return peer;
    }

    /** Forgets peers not heard from within the idle timeout; on the I/O thread. */
    void forgetIdle() {
        long now = clock.nanos();
        for (UdpPeer p : peers.values()) {
            if (now - p.lastHeardNanos() > idleNanos && peers.remove(p.address(), p)) {
                slots.give();
                counters.udpPeersForgotten.increment();
                LOG.info("{}: forgotten after {} ms without a command", p.describe(), (now - p.lastHeardNanos()) / 1_000_000);
            }
        }
    }

    Collection<UdpPeer> peers() {
        return peers.values();
    }

    /** Sends a data frame to one address if the socket's queue has room; any thread. */
    boolean sendData(ByteBuf frame, InetSocketAddress to) {
        return send(frame.retainedDuplicate(), to, counters.dataFramesSent, counters.dataFramesDropped);
    }

    /** Sends a whole frame, counted in {@code sent} or, if the queue is full, in the answers dropped. */
    boolean sendAnswer(byte[] frame, InetSocketAddress to, LongAdder sent) {
        return send(Unpooled.wrappedBuffer(frame), to, sent, counters.answersDropped);
    }

    /** Sends {@code datagram}, taking ownership of it; counts it before it can arrive. */
    private boolean send(ByteBuf datagram, InetSocketAddress to, LongAdder sent, LongAdder dropped) {
        Channel ch = channel;
        int size = datagram.readableBytes();
        if (ch == null || !pending.tryAdd(size)) {
            datagram.release();
            dropped.increment();
            return false;
        }
        sent.increment();
        ch.writeAndFlush(new DatagramPacket(datagram, to)).addListener(f -> {
            pending.remove(size);
            if (!f.isSuccess() && ch.isOpen()) {
                LOG.debug("udp {}: datagram not sent: {}", to, f.cause().toString());
            }
        });
        return true;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A datagram socket reports ICMP port unreachable as an error: the peer went away; keep serving.
        LOG.debug("udp: {}", cause.toString());
    }
}
