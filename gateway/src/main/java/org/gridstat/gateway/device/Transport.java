package org.gridstat.gateway.device;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Epoll where the kernel offers it, NIO elsewhere; channels matching whatever group runs them. */
final class Transport {
    private Transport() {
    }

    /**
     * One I/O thread: a PMU's few dozen clients need no more, and one thread keeps every client's
     * writes in the order {@link PmuServer#send} made them.
     */
    static EventLoopGroup ownGroup() {
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("c37118-server", true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    private static boolean epoll(EventLoopGroup group) {
        return group instanceof IoEventLoopGroup g && Epoll.isAvailable() && g.isIoType(EpollIoHandler.class);
    }

    static Class<? extends ServerSocketChannel> serverChannel(EventLoopGroup group) {
        return epoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends DatagramChannel> datagramChannel(EventLoopGroup group) {
        return epoll(group) ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }
}
