package org.gridstat.statusrouter.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.Endpoint;
import org.gridstat.statusrouter.api.RouterCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's UDP data plane: event loops, one datagram channel per loop (sharing the port with
 * SO_REUSEPORT under epoll, so the kernel spreads senders over loops and keeps each sender's
 * events on one loop, in order), and a forwarding handler on each.
 */
final class DataPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    /** Larger than any valid frame, so an oversize datagram arrives whole and is counted as such. */
    private static final int DATAGRAM_BUFFER = 2048;

    private final RouterSettings settings;
    private final EventLoopGroup group;
    private final List<Channel> channels = new ArrayList<>();
    private final List<DataPathCounters> counters = new ArrayList<>();
    private final boolean epoll;

    private DataPlane(RouterSettings settings, boolean epoll, EventLoopGroup group) {
        this.settings = settings;
        this.epoll = epoll;
        this.group = group;
    }

    /** Binds the data port and starts forwarding. */
    static DataPlane start(RouterSettings settings) {
        boolean epoll = chooseEpoll(settings.transport);
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        int loops = epoll ? settings.eventLoops : 1;
        if (!epoll && settings.eventLoops > 1) {
            LOG.warn("router {}: {} event loops need epoll's SO_REUSEPORT; the NIO transport runs one",
                    settings.nodeId, settings.eventLoops);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, new DefaultThreadFactory("gridstat-" + settings.nodeId), io);
        DataPlane plane = new DataPlane(settings, epoll, group);
        try {
            plane.bind(loops);
        } catch (RuntimeException e) {
            plane.close();
            throw e;
        }
        return plane;
    }

    private static boolean chooseEpoll(RouterSettings.Transport transport) {
        switch (transport) {
            case NIO:
                return false;
            case EPOLL:
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("transport epoll was asked for but is unavailable: "
                            + Epoll.unavailabilityCause());
                }
                return true;
            default:
                return Epoll.isAvailable();
        }
    }

    private void bind(int loops) {
        InetSocketAddress[] outLinks = resolve(settings.table.outLinks());
        InetSocketAddress bindAddress = resolve(settings.bind);
        for (int i = 0; i < loops; i++) {
            DataPathCounters c = new DataPathCounters();
            Bootstrap b = new Bootstrap().group(group)
                    .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
                    .option(ChannelOption.SO_RCVBUF, settings.socketBufferBytes)
                    .option(ChannelOption.SO_SNDBUF, settings.socketBufferBytes)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(DATAGRAM_BUFFER))
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast("forward", new ForwardingHandler(settings.table, outLinks, c));
                        }
                    });
            if (epoll && loops > 1) {
                b.option(EpollChannelOption.SO_REUSEPORT, true);
            }
            // With several loops, every channel binds the port the first one got.
            InetSocketAddress at = channels.isEmpty() ? bindAddress : (InetSocketAddress) channels.get(0).localAddress();
            Channel ch = b.bind(at).syncUninterruptibly().channel();
            channels.add(ch);
            counters.add(c);
        }
        LOG.info("router {} forwarding on {} ({}, {} event loop(s), {} variable(s), {} out-link(s))", settings.nodeId,
                localAddress(), epoll ? "epoll" : "nio", loops, settings.table.size(), outLinks.length);
    }

    private static InetSocketAddress[] resolve(List<Endpoint> endpoints) {
        InetSocketAddress[] out = new InetSocketAddress[endpoints.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = resolve(endpoints.get(i));
        }
        return out;
    }

    private static InetSocketAddress resolve(Endpoint e) {
        InetSocketAddress a = new InetSocketAddress(e.host(), e.port());
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("host of endpoint " + e + " does not resolve");
        }
        return a;
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channels.get(0).localAddress();
    }

    public RouterCounters counters() {
        return DataPathCounters.snapshot(counters);
    }

    public boolean usesEpoll() {
        return epoll;
    }

    /** Closes the sockets and stops the event loops; returns once they have stopped. */
    @Override
    public void close() {
        for (Channel ch : channels) {
            ch.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
