package org.gridstat.gateway.device;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A C37.118 data server, the PMU or PDC side of the protocol. TCP clients and UDP peers send
 * command frames; the server answers with the configuration and header frames of the
 * {@link ServedStream} and sends the data frames given to {@link #send} to each client that turned
 * its data on. Each client has its own data switch, off at start, and its own queue: a client that
 * does not keep up loses frames (counted), never the others, and never makes the server hold more
 * than {@link Settings#maxPendingBytes()} for it.
 *
 * <p>One I/O thread (Netty) runs every connection; {@link #send} may be called from any thread.
 */
public final class PmuServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PmuServer.class);

    /**
     * Where and how to serve.
     *
     * @param tcp listen here for TCP clients (port 0: any free port); null for no TCP
     * @param udp bind here for UDP peers' commands and data; null for no UDP commands
     * @param spontaneousTo send every data frame here over UDP without being asked, and CFG-2 at
     *        start and every {@code configEvery}; null for none
     * @param tcpDataOverUdp "commands on TCP, data on UDP": data for TCP clients that turned data on
     *        goes as datagrams to this address instead of their connection (a wildcard host means
     *        each client's own address at this port); null for data on TCP
     * @param maxClients TCP connections and UDP peers together; a connection beyond is closed at
     *        once, a peer beyond is not registered (both counted)
     * @param maxPendingBytes bytes queued per TCP client (and for the UDP socket); a data frame that
     *        would exceed it is dropped for that client and counted
     * @param configEvery how often spontaneous mode repeats CFG-2
     * @param idleTimeout a UDP peer that sends no command for this long is forgotten
     */
    public record Settings(
            InetSocketAddress tcp,
            InetSocketAddress udp,
            InetSocketAddress spontaneousTo,
            InetSocketAddress tcpDataOverUdp,
            int maxClients,
            int maxPendingBytes,
            Duration configEvery,
            Duration idleTimeout) {

        public static final int DEFAULT_MAX_CLIENTS = 64;
        public static final int DEFAULT_MAX_PENDING_BYTES = 1 << 20;
        /** Repeating CFG-2 once a minute is the common practice for spontaneous streams. */
        public static final Duration DEFAULT_CONFIG_EVERY = Duration.ofSeconds(60);
        public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);

        public Settings {
            Objects.requireNonNull(configEvery, "configEvery");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (tcp == null && udp == null && spontaneousTo == null) {
                throw new IllegalArgumentException("nothing to serve on: give a TCP or UDP address or a spontaneous destination");
            }
            if (tcpDataOverUdp != null && tcp == null) {
                throw new IllegalArgumentException("data over UDP for TCP clients needs a TCP address");
            }
            if (maxClients < 1) {
                throw new IllegalArgumentException("maxClients must be at least 1: " + maxClients);
            }
            if (maxPendingBytes < CommonHeader.MIN_FRAME_SIZE) {
                throw new IllegalArgumentException("maxPendingBytes must hold a frame: " + maxPendingBytes);
            }
            if (configEvery.isNegative() || configEvery.isZero() || idleTimeout.isNegative() || idleTimeout.isZero()) {
                throw new IllegalArgumentException("configEvery and idleTimeout must be positive");
            }
        }

        /** TCP only, with the defaults: 64 clients, 1 MiB per client, CFG-2 every 60 s, UDP peers idle after 120 s. */
        public static Settings tcp(InetSocketAddress tcp) {
            return new Settings(Objects.requireNonNull(tcp, "tcp"), null, null, null, DEFAULT_MAX_CLIENTS,
                    DEFAULT_MAX_PENDING_BYTES, DEFAULT_CONFIG_EVERY, DEFAULT_IDLE_TIMEOUT);
        }

        /** UDP only, with the defaults. */
        public static Settings udp(InetSocketAddress udp) {
            return new Settings(null, Objects.requireNonNull(udp, "udp"), null, null, DEFAULT_MAX_CLIENTS,
                    DEFAULT_MAX_PENDING_BYTES, DEFAULT_CONFIG_EVERY, DEFAULT_IDLE_TIMEOUT);
        }

        public Settings withTcp(InetSocketAddress a) {
            return new Settings(a, udp, spontaneousTo, tcpDataOverUdp, maxClients, maxPendingBytes, configEvery, idleTimeout);
        }

        public Settings withUdp(InetSocketAddress a) {
            return new Settings(tcp, a, spontaneousTo, tcpDataOverUdp, maxClients, maxPendingBytes, configEvery, idleTimeout);
        }

        public Settings withSpontaneousTo(InetSocketAddress a) {
            return new Settings(tcp, udp, a, tcpDataOverUdp, maxClients, maxPendingBytes, configEvery, idleTimeout);
        }

        public Settings withTcpDataOverUdp(InetSocketAddress a) {
            return new Settings(tcp, udp, spontaneousTo, a, maxClients, maxPendingBytes, configEvery, idleTimeout);
        }

        public Settings withMaxClients(int n) {
            return new Settings(tcp, udp, spontaneousTo, tcpDataOverUdp, n, maxPendingBytes, configEvery, idleTimeout);
        }

        public Settings withMaxPendingBytes(int n) {
            return new Settings(tcp, udp, spontaneousTo, tcpDataOverUdp, maxClients, n, configEvery, idleTimeout);
        }

        public Settings withConfigEvery(Duration d) {
            return new Settings(tcp, udp, spontaneousTo, tcpDataOverUdp, maxClients, maxPendingBytes, d, idleTimeout);
        }

        public Settings withIdleTimeout(Duration d) {
            return new Settings(tcp, udp, spontaneousTo, tcpDataOverUdp, maxClients, maxPendingBytes, configEvery, d);
        }
    }

    private final Settings settings;
    private final EventLoopGroup group;
    private final boolean ownGroup;
    private final CounterSet counters = new CounterSet();
    private final ClientSlots slots;
    private final StreamFrames frames;
    private final CommandHandler handler;
    private final List<ClientSession> sessions = new CopyOnWriteArrayList<>();
    private final List<ScheduledFuture<?>> timers = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** A storm of connections beyond the limit logs one line a second; used on the I/O thread. */
    private final RateLimitedWarning refusals = new RateLimitedWarning();
    private Channel tcpChannel;
    private Channel udpChannel;
    private UdpEndpoint udp;

    private PmuServer(Settings settings, ServedStream stream, Clock clock, EventLoopGroup group) {
        this.settings = settings;
        this.ownGroup = group == null;
        this.group = ownGroup ? Transport.ownGroup() : group;
        this.slots = new ClientSlots(settings.maxClients());
        this.frames = new StreamFrames(stream, clock);
        this.handler = new CommandHandler(stream, frames, counters);
        if (settings.udp() != null || settings.spontaneousTo() != null || settings.tcpDataOverUdp() != null) {
            udp = new UdpEndpoint(settings.udp() != null, handler, counters, slots, clock, settings.idleTimeout(),
                    settings.maxPendingBytes());
        }
    }

    /** Serves {@code stream} on the system clock, with a Netty event loop of its own. */
    public static PmuServer start(Settings settings, ServedStream stream) {
        return start(settings, stream, SystemClock.INSTANCE, null);
    }

    /** Serves {@code stream}, stamping configuration and header frames with {@code clock}'s time. */
    public static PmuServer start(Settings settings, ServedStream stream, Clock clock) {
        return start(settings, stream, clock, null);
    }

    /**
     * Serves {@code stream}, stamping configuration and header frames with {@code clock}'s time.
     *
     * @param group the Netty event loops to run on, left running on close; null for a thread of its own
     * @throws UncheckedIOException when an address cannot be bound (a port taken, say)
     */
    public static PmuServer start(Settings settings, ServedStream stream, Clock clock, EventLoopGroup group) {
        PmuServer server = new PmuServer(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(stream, "stream"),
                Objects.requireNonNull(clock, "clock"), group);
        try {
            server.bind();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void bind() {
        if (settings.tcp() != null) {
            ServerBootstrap b = new ServerBootstrap()
                    .group(group)
                    .channel(Transport.serverChannel(group))
                    .option(ChannelOption.SO_BACKLOG, 128)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            accept(ch);
                        }
                    });
            tcpChannel = bound(b.bind(settings.tcp()), "TCP clients", settings.tcp());
        }
        if (udp != null) {
            InetSocketAddress at = settings.udp() != null ? settings.udp()
                    : new InetSocketAddress(settings.tcp() != null ? settings.tcp().getAddress() : null, 0);
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(Transport.datagramChannel(group))
                    .handler(udp);
            udpChannel = bound(b.bind(at), "UDP", at);
            udp.bound(udpChannel);
            if (settings.udp() != null) {
                long every = Math.max(10, Math.min(1000, settings.idleTimeout().toMillis() / 4));
                timers.add(udpChannel.eventLoop().scheduleAtFixedRate(udp::forgetIdle, every, every, TimeUnit.MILLISECONDS));
            }
        }
        if (settings.spontaneousTo() != null) {
            // The first CFG-2 is queued from this thread, before start returns, so it leaves ahead of
            // any data frame: a receiver needs it to read them.
            sendSpontaneousConfig();
            long every = settings.configEvery().toNanos();
            timers.add(udpChannel.eventLoop().scheduleAtFixedRate(this::sendSpontaneousConfig, every, every,
                    TimeUnit.NANOSECONDS));
        }
        LOG.info("serving C37.118: tcp {}, udp {}, spontaneous to {}, TCP clients' data {}", tcpAddress(), udpAddress(),
                settings.spontaneousTo(), settings.tcpDataOverUdp() == null ? "on TCP" : "to UDP " + settings.tcpDataOverUdp());
    }

    private static Channel bound(ChannelFuture f, String what, InetSocketAddress at) {
        f.awaitUninterruptibly();
        if (!f.isSuccess()) {
            Throwable cause = f.cause();
            String reason = cause instanceof BindException ? "the address is in use or not local" : String.valueOf(cause);
            throw new UncheckedIOException(new BindException("cannot bind " + what + " on " + at + ": " + reason
                    + (cause == null ? "" : " (" + cause.getMessage() + ")")));
        }
        return f.channel();
    }

    private void accept(SocketChannel ch) {
        if (closed.get() || !slots.take()) {
            counters.connectionsRefused.increment();
            refusals.warn(LOG, "tcp " + ch.remoteAddress(), "refused: the server has its maximum of " + settings.maxClients() + " clients");
            ch.close();
            return;
        }
        counters.connectionsAccepted.increment();
        ClientSession s = new ClientSession(ch, handler, counters, settings.maxPendingBytes(), settings.tcpDataOverUdp(),
                this::closed);
        sessions.add(s);
        ch.pipeline().addLast(s);
        LOG.info("{}: connected", s.describe());
    }

    private void closed(ClientSession s) {
        if (sessions.remove(s)) {
            slots.give();
            counters.connectionsClosed.increment();
            LOG.info("{}: disconnected", s.describe());
        }
    }

    private void sendSpontaneousConfig() {
        byte[] cfg2 = frames.config2();
        if (cfg2 != null) {
            udp.sendAnswer(cfg2, settings.spontaneousTo(), counters.configFramesSent);
        }
    }

    /** The address TCP clients connect to, or null without TCP. */
    public InetSocketAddress tcpAddress() {
        return tcpChannel == null ? null : (InetSocketAddress) tcpChannel.localAddress();
    }

    /** The address UDP peers send commands to, or null without UDP commands. */
    public InetSocketAddress udpAddress() {
        return udpChannel == null || settings.udp() == null ? null : (InetSocketAddress) udpChannel.localAddress();
    }

    /**
     * Sends one whole data frame, the buffer's remaining bytes, to every client whose data is on
     * (and to the spontaneous address). Copied once before it returns, the buffer's position left
     * as it was; never blocks. Any thread; frames given by one thread go out in that order.
     */
    public void send(ByteBuffer dataFrame) {
        int n = dataFrame.remaining();
        if (n < CommonHeader.MIN_FRAME_SIZE || n > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("a data frame is 16 to 65535 bytes, not " + n);
        }
        if (closed.get()) {
            return;
        }
        counters.dataFramesOffered.increment();
        ByteBuf frame = ByteBufAllocator.DEFAULT.directBuffer(n, n);
        try {
            frame.writeBytes(dataFrame.duplicate());
            sendToTcpClients(frame);
            if (udp != null) {
                for (UdpPeer p : udp.peers()) {
                    if (p.dataOn()) {
                        p.countData(udp.sendData(frame, p.address()));
                    }
                }
                if (settings.spontaneousTo() != null) {
                    udp.sendData(frame, settings.spontaneousTo());
                }
            }
        } finally {
            frame.release();
        }
    }

    private void sendToTcpClients(ByteBuf frame) {
        if (settings.tcpDataOverUdp() == null) {
            for (ClientSession s : sessions) {
                if (s.dataOn()) {
                    s.sendData(frame);
                }
            }
            return;
        }
        // Several clients may share one UDP destination: it gets each frame once.
        List<InetSocketAddress> done = null;
        for (ClientSession s : sessions) {
            if (!s.dataOn()) {
                continue;
            }
            InetSocketAddress to = s.udpDataTarget();
            if (done == null) {
                done = new ArrayList<>(2);
            } else if (done.contains(to)) {
                continue;
            }
            done.add(to);
            s.countUdpData(udp.sendData(frame, to));
        }
    }

    public ServerCounters counters() {
        List<ServerCounters.ClientCounters> clients = new ArrayList<>();
        sessions.forEach(s -> clients.add(s.counters()));
        int peers = 0;
        if (udp != null) {
            for (UdpPeer p : udp.peers()) {
                clients.add(p.counters());
                peers++;
            }
        }
        return counters.snapshot(sessions.size(), peers, clients);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Closes the listeners and every client, and the event loop if it is the server's own.
     * Idempotent. Not to be called from the server's I/O thread, since it waits for it.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        timers.forEach(t -> t.cancel(false));
        List<ChannelFuture> closing = new ArrayList<>();
        if (tcpChannel != null) {
            closing.add(tcpChannel.close());
        }
        if (udpChannel != null) {
            closing.add(udpChannel.close());
        }
        sessions.forEach(s -> closing.add(s.channel().close()));
        closing.forEach(ChannelFuture::awaitUninterruptibly);
        if (ownGroup) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        LOG.info("C37.118 server closed");
    }
}
