package org.gridstat.gateway.ingest;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.framing.FrameHandler;
import org.gridstat.gateway.c37118.framing.StreamFramer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A device session's transport: the TCP connection the gateway opens (commands, and data in the
 * TCP mode) and the UDP socket data arrives on (UDP modes), all on one Netty event loop, so the
 * {@link DeviceSession} it drives is touched by one thread. Reconnects after the back-off the
 * session gives; runs the session's timers on a 50 ms tick.
 */
public final class DeviceConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceConnection.class);
    private static final long TICK_MILLIS = 50;
    /** At most one line a period per device names what it lost. */
    private static final long DROP_LOG_PERIOD_NANOS = 10_000_000_000L;
    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;

    private final DeviceSettings settings;
    private final EventLoop loop;
    private final NanoClock mono;
    private final DeviceCounters counters;
    private final DeviceSession session;
    private final StreamFramer framer;
    private Channel tcp;
    private Channel udp;
    private ScheduledFuture<?> tick;
    private volatile boolean closed;

    public DeviceConnection(DeviceSettings settings, EventLoop loop, Clock epoch, NanoClock mono,
                            DeviceSession.Sink sink) {
        this(settings, loop, epoch, mono, sink, new DeviceCounters(settings.name()));
    }

    /** A transport whose counters the sink shares (the publisher counts what it shapes and drops). */
    public DeviceConnection(DeviceSettings settings, EventLoop loop, Clock epoch, NanoClock mono,
                            DeviceSession.Sink sink, DeviceCounters counters) {
        this.settings = settings;
        this.loop = loop;
        this.mono = mono;
        this.counters = counters;
        this.session = new DeviceSession(settings, epoch, new Link(), sink, counters);
        this.framer = new StreamFramer(new FrameHandler() {
            @Override
            public void onFrame(FrameType type, ByteBuffer buffer, int offset, int length) {
                session.frame(type, buffer, offset, length, mono.nanoTime());
            }

            @Override
            public void onReject(FrameReject reason, int bytes) {
                session.rejected(reason);
            }
        });
    }

    public DeviceSettings settings() {
        return settings;
    }

    public DeviceCounters counters() {
        return counters;
    }

    /**
     * Binds the UDP socket (UDP modes), then connects; returns once the socket is bound.
     *
     * @throws IllegalStateException if the UDP address cannot be bound, naming it
     */
    public DeviceConnection start() {
        if (settings.transport().udpData()) {
            ChannelFuture bound = new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                    .handler(new DatagramHandler()).bind(settings.localUdp()).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new IllegalStateException("device " + settings.name() + ": cannot bind UDP " + settings.localUdp()
                        + ": " + bound.cause().getMessage(), bound.cause());
            }
            udp = bound.channel();
        }
        loop.execute(() -> {
            DropLog drops = new DropLog(settings.name(), counters, DROP_LOG_PERIOD_NANOS, mono.nanoTime());
            tick = loop.scheduleAtFixedRate(() -> {
                long now = mono.nanoTime();
                session.poll(now);
                drops.poll(now, LOG);
            }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            connect();
        });
        return this;
    }

    /** The UDP socket's address (UDP modes), or null. */
    public InetSocketAddress udpAddress() {
        return udp == null ? null : (InetSocketAddress) udp.localAddress();
    }

    private void connect() {
        if (closed) {
            return;
        }
        if (settings.transport() == DeviceTransport.UDP || settings.transport() == DeviceTransport.SPONTANEOUS) {
            session.connected(mono.nanoTime());
            return;
        }
        session.connecting();
        ChannelFuture f = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new StreamHandler());
                    }
                })
                .connect(settings.address());
        f.addListener(done -> {
            if (!done.isSuccess()) {
                LOG.debug("device {}: cannot connect to {}: {}", settings.name(), settings.address(),
                        done.cause().toString());
                reconnectLater();
            }
        });
    }

    private void reconnectLater() {
        long wait = session.disconnected(mono.nanoTime());
        if (!closed) {
            loop.schedule(this::connect, wait, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void close() {
        closed = true;
        loop.execute(() -> {
            if (tick != null) {
                tick.cancel(false);
            }
            if (tcp != null) {
                tcp.close();
            }
            if (udp != null) {
                udp.close();
            }
        });
        if (udp != null) {
            udp.closeFuture().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    /** What the session asks of the transport. */
    private final class Link implements DeviceSession.Link {
        @Override
        public void send(byte[] command) {
            if (settings.transport() == DeviceTransport.UDP) {
                if (udp != null) {
                    udp.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(command), settings.address()));
                }
            } else if (tcp != null && tcp.isActive()) {
                tcp.writeAndFlush(Unpooled.wrappedBuffer(command));
            }
        }

        @Override
        public void restart() {
            if (tcp != null && tcp.isActive()) {
                tcp.close(); // channelInactive reports the end and schedules the next attempt
            } else if (settings.transport() == DeviceTransport.UDP || settings.transport() == DeviceTransport.SPONTANEOUS) {
                reconnectLater();
            }
        }
    }

    /** The TCP connection: bytes through the framer into the session. */
    private final class StreamHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (closed) { // closed while this connection was being made
                ctx.close();
                return;
            }
            tcp = ctx.channel();
            framer.endOfStream(); // a partial frame of a previous connection is not joined to this one
            LOG.info("device {}: connected to {}", settings.name(), settings.address());
            session.connected(mono.nanoTime());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
            framer.accept(view(msg));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (tcp == ctx.channel()) {
                tcp = null;
            }
            LOG.info("device {}: connection to {} closed", settings.name(), settings.address());
            reconnectLater();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("device {}: {}", settings.name(), cause.toString());
            ctx.close();
        }
    }

    /** UDP data: one frame a datagram, from the device's host only. */
    private final class DatagramHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            if (settings.address() != null
                    && !packet.sender().getAddress().equals(settings.address().getAddress())) {
                counters.add(DeviceCounter.FOREIGN_DATAGRAMS);
                return;
            }
            ByteBuf content = packet.content();
            ByteBuffer b = view(content);
            int length = b.remaining();
            int offset = b.position();
            FrameReject r = CommonHeader.check(b, offset, length);
            if (r != FrameReject.NONE) {
                session.rejected(r);
                return;
            }
            session.frame(CommonHeader.type(b, offset), b, offset, length, mono.nanoTime());
        }
    }

    /** The readable bytes as a ByteBuffer: the buffer's own view when it has one, so a read allocates nothing. */
    private static ByteBuffer view(ByteBuf b) {
        return b.nioBufferCount() == 1 ? b.internalNioBuffer(b.readerIndex(), b.readableBytes()) : b.nioBuffer();
    }
}
