package org.gridstat.broker.control;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.broker.install.FlowInstaller;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's end of the control channel. Routers connect and say {@code Hello}; the broker
 * sends each its whole desired state followed by {@code SyncEnd}, so a restarted or reconnected
 * router is resynchronised, then every change as it is made. Each message is acknowledged by the
 * router; {@link #pending} tells what is not yet. A peer that sends a malformed or oversized frame,
 * anything before its {@code Hello}, or names a router the broker does not know is told why and
 * disconnected; the other routers are not disturbed.
 *
 * <p>Liveness and limits ({@link ControlLimits}): both ends send heartbeats, and a router silent
 * for the timeout loses its session; a connection that does not say {@code Hello} in time is
 * closed; connections are capped. A second session for a router that is connected and alive is
 * refused with an alarm naming both addresses (two routers with one identity would otherwise take
 * the session from each other); once the first is silent for the timeout, the second takes over.
 */
public final class ControlChannelServer implements FlowInstaller, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlChannelServer.class);
    private static final AttributeKey<String> ROUTER = AttributeKey.valueOf("gridstat.router");
    private static final AttributeKey<ControlLiveness> LIVENESS = AttributeKey.valueOf("gridstat.liveness");
    /** Set once a session's resynchronisation has been sent: before, its router is not yet connected. */
    private static final AttributeKey<Boolean> RESYNC_SENT = AttributeKey.valueOf("gridstat.resyncSent");
    /**
     * A session's sequence numbers sent and not yet acknowledged: its own, so that what was sent on
     * an older session of the same router neither counts nor is lost in the new one's count.
     */
    private static final AttributeKey<Set<Long>> UNACKED = AttributeKey.valueOf("gridstat.unacked");
    /** At most one log line per this long about connections refused at the cap. */
    private static final long OVER_CAP_LOG_NANOS = 10_000_000_000L;

    private final Set<String> knownRouters;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("gridstat-broker-control", true), NioIoHandler.newFactory());
    private final Channel server;
    private final AtomicLong sequence = new AtomicLong();
    /** Per router: its desired flows by flow id. */
    private final Map<String, Map<Long, ControlMessage.InstallFlow>> desired = new ConcurrentHashMap<>();
    private final Map<String, Channel> sessions = new ConcurrentHashMap<>();
    private final AlarmLog alarms = new AlarmLog(1000);
    private final FlowReports reports = new FlowReports();
    /** Told of each flow a router reports short of bandwidth where it was not (global adaptation). */
    private volatile java.util.function.BiConsumer<String, ControlMessage.FlowSample> shortfalls = (r, s) -> { };
    private final CounterReports counters = new CounterReports();
    private final InstallOutcomes outcomes = new InstallOutcomes(System::currentTimeMillis);
    private final RouterPresence presence;
    private final ControlLimits limits;
    private final NanoClock clock = SystemNanoClock.INSTANCE;
    /** Open connections, and those among them that have not said Hello, oldest first. */
    private final AtomicInteger connections = new AtomicInteger();
    private final Set<Channel> unidentified = java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
    private final AtomicLong helloTimeouts = new AtomicLong();
    private final AtomicLong overCap = new AtomicLong();
    private final AtomicLong displaced = new AtomicLong();
    private final AtomicLong silentRouters = new AtomicLong();
    private final AtomicLong duplicateSessions = new AtomicLong();
    private long overCapLoggedAt = Long.MIN_VALUE;
    private long overCapSinceLog;
    private volatile boolean closing;
    /** Per router: the out-links it is given after its Hello, before its flows. */
    private volatile Map<String, ControlMessage.OutLinks> outLinks = Map.of();

    public ControlChannelServer(InetSocketAddress bind, Set<String> knownRouters) {
        this(bind, knownRouters, Map.of(), RouterPresence.NONE);
    }

    /**
     * Starts with the flows each router already holds (a broker resuming its state), so the first
     * resynchronisation of every router sends them all; {@code presence} hears of sessions.
     */
    public ControlChannelServer(InetSocketAddress bind, Set<String> knownRouters,
                                Map<String, List<ControlMessage.InstallFlow>> initial, RouterPresence presence) {
        this(bind, knownRouters, initial, presence, ControlLimits.DEFAULT);
    }

    /** The same, with its own heartbeat timing, hello deadline and connection cap. */
    public ControlChannelServer(InetSocketAddress bind, Set<String> knownRouters,
                                Map<String, List<ControlMessage.InstallFlow>> initial, RouterPresence presence,
                                ControlLimits limits) {
        this.knownRouters = Set.copyOf(knownRouters);
        this.presence = presence;
        this.limits = limits;
        initial.forEach((router, flows) -> {
            requireKnown(router);
            Map<Long, ControlMessage.InstallFlow> m = desired.computeIfAbsent(router, r -> new ConcurrentHashMap<>());
            flows.forEach(f -> m.put(f.spec().flowId(), f));
        });
        try {
            this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(io.netty.channel.ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (!admit(ch)) {
                                return;
                            }
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(ControlCodec.MAX_BODY + 4, 0, 4, 0, 4))
                                    .addLast(new Session());
                        }
                    })
                    .bind(bind).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("cannot open the control channel on " + bind + ": " + e.getMessage(), e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** Records a flow for a router and sends it if the router is connected. */
    @Override
    public void install(String router, ControlMessage.InstallFlow flow) {
        requireKnown(router);
        desired.computeIfAbsent(router, r -> new ConcurrentHashMap<>()).put(flow.spec().flowId(), flow);
        Channel ch = sessions.get(router);
        if (ch != null) {
            send(router, ch, flow);
        }
    }

    /** Forgets a flow and tells the router to remove it, if connected (else the next resync does). */
    @Override
    public void remove(String router, long flowId, long version) {
        requireKnown(router);
        Map<Long, ControlMessage.InstallFlow> flows = desired.get(router);
        if (flows != null) {
            flows.remove(flowId);
        }
        outcomes.removed(router, flowId);
        Channel ch = sessions.get(router);
        if (ch != null) {
            send(router, ch, new ControlMessage.RemoveFlow(flowId, version));
        }
    }

    /**
     * Gives each router of {@code plan} these out-links from now on: sent after its Hello, before
     * its flows. A router connected already is disconnected, so that it comes back and is given
     * them with its flows in one resynchronisation.
     *
     * @throws IllegalArgumentException for a router not in the topology or out-links that do not fit a message
     */
    public void outLinks(Map<String, List<ControlMessage.OutLink>> plan) {
        Map<String, ControlMessage.OutLinks> m = new ConcurrentHashMap<>();
        plan.forEach((router, links) -> {
            requireKnown(router);
            ControlMessage.OutLinks message = new ControlMessage.OutLinks(links);
            ControlCodec.encode(0, message); // refused here, not at a router's every Hello
            m.put(router, message);
        });
        outLinks = m;
        for (Map.Entry<String, Channel> s : sessions.entrySet()) {
            if (plan.containsKey(s.getKey())) {
                s.getValue().close();
            }
        }
    }

    /**
     * A router's session read once: connected once its resynchronisation has been sent, with the
     * messages sent on it not yet acknowledged. Connected with none unacknowledged, the router
     * holds every flow installed for it.
     */
    public record RouterSync(boolean connected, int unacknowledged) {
        public static final RouterSync NONE = new RouterSync(false, 0);

        public boolean inSync() {
            return connected && unacknowledged == 0;
        }
    }

    /** The router's current session, from one reading of it (two calls could see two sessions). */
    public RouterSync sync(String router) {
        Channel ch = sessions.get(router);
        if (ch == null || !ch.isActive() || !Boolean.TRUE.equals(ch.attr(RESYNC_SENT).get())) {
            return RouterSync.NONE;
        }
        return new RouterSync(true, unacked(ch).size());
    }

    /** Whether the router holds every flow installed for it (see {@link RouterSync}). */
    public boolean inSync(String router) {
        return sync(router).inSync();
    }

    public boolean connected(String router) {
        return sync(router).connected();
    }

    /** Messages sent to a router on its current session and not yet acknowledged; 0 without one. */
    public int pending(String router) {
        return sync(router).unacknowledged();
    }

    /** What the liveness rules and limits have done so far. */
    public record Counters(long helloTimeouts, long refusedAtCap, long displacedAtCap, long silentRouters,
                           long duplicateSessions, int connections) {
    }

    public Counters limitCounters() {
        return new Counters(helloTimeouts.get(), overCap.get(), displaced.get(), silentRouters.get(),
                duplicateSessions.get(), connections.get());
    }

    /**
     * Counts a new connection in, displacing the oldest that has not said Hello if at the cap; a
     * connection that finds every place taken by routers' sessions is closed at once.
     */
    private boolean admit(Channel ch) {
        if (connections.incrementAndGet() > limits.maxConnections()) {
            Channel oldest;
            synchronized (unidentified) {
                java.util.Iterator<Channel> it = unidentified.iterator();
                oldest = it.hasNext() ? it.next() : null;
                if (oldest != null) {
                    it.remove();
                }
            }
            if (oldest == null) {
                connections.decrementAndGet();
                overCap.incrementAndGet();
                logOverCap(ch);
                ch.close();
                return false;
            }
            displaced.incrementAndGet();
            oldest.close();
        }
        unidentified.add(ch);
        ch.closeFuture().addListener(f -> {
            connections.decrementAndGet();
            unidentified.remove(ch);
        });
        return true;
    }

    private void logOverCap(Channel ch) {
        long now = clock.nanoTime();
        synchronized (unidentified) {
            overCapSinceLog++;
            if (overCapLoggedAt != Long.MIN_VALUE && now - overCapLoggedAt < OVER_CAP_LOG_NANOS) {
                return;
            }
            LOG.warn("control port at its cap of {} connections, all routers' sessions: closed {} new connection(s),"
                    + " the latest from {}", limits.maxConnections(), overCapSinceLog, ch.remoteAddress());
            overCapLoggedAt = now;
            overCapSinceLog = 0;
        }
    }

    /** Refusals heard from routers and protocol errors of peers, decisions first, each least recently seen first. */
    public List<String> refusals() {
        return alarms.recent().stream().map(a -> a.source() + ": " + a.message()).toList();
    }

    /** The routers' latest statistics of their flows. */
    /** Tells {@code listener}, on the control loop, of each flow a router newly reports short of bandwidth. */
    public void onShortfall(java.util.function.BiConsumer<String, ControlMessage.FlowSample> listener) {
        this.shortfalls = java.util.Objects.requireNonNull(listener, "listener");
    }

    public FlowReports reports() {
        return reports;
    }

    /** What each router answered to the flows sent to it. */
    public InstallOutcomes outcomes() {
        return outcomes;
    }

    /** The routers' latest counters of themselves: drops by reason, per-link figures. */
    public CounterReports counters() {
        return counters;
    }

    /** Refusals, protocol errors and lost routers, bounded. */
    public AlarmLog alarms() {
        return alarms;
    }

    private void requireKnown(String router) {
        if (!knownRouters.contains(router)) {
            throw new IllegalArgumentException("no router '" + router + "' in this broker's topology");
        }
    }

    private static Set<Long> unacked(Channel ch) {
        Set<Long> s = ch.attr(UNACKED).get();
        if (s == null) {
            Set<Long> fresh = ConcurrentHashMap.newKeySet();
            s = ch.attr(UNACKED).setIfAbsent(fresh);
            s = s == null ? fresh : s;
        }
        return s;
    }

    private void send(String router, Channel ch, ControlMessage m) {
        long seq = awaitAck(ch);
        if (m instanceof ControlMessage.InstallFlow f) {
            outcomes.sent(router, seq, f);
        }
        write(ch, seq, m);
    }

    /** A new sequence number, counted as unacknowledged on {@code ch} until its router answers it. */
    private long awaitAck(Channel ch) {
        long seq = sequence.incrementAndGet();
        unacked(ch).add(seq);
        return seq;
    }

    private static void write(Channel ch, long seq, ControlMessage m) {
        ch.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(seq, m)));
    }

    private void refuse(ChannelHandlerContext ctx, long seq, AlarmLog.Kind kind, String why) {
        refuse(ctx, seq, peerHost(ctx.channel()), kind, why);
    }

    private void refuse(ChannelHandlerContext ctx, long seq, String source, AlarmLog.Kind kind, String why) {
        if (alarms.raise(source, kind, why)) { // logged as often as recorded: noise is rate-limited
            LOG.warn("control peer {}: {}; disconnecting it", ctx.channel().remoteAddress(), AlarmLog.clean(why,
                    AlarmLog.MAX_MESSAGE));
        }
        ctx.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(sequence.incrementAndGet(),
                new ControlMessage.Nack(seq, why)))).addListener(ChannelFutureListener.CLOSE);
    }

    /** A peer's host without its port, so that one host's noise folds into one alarm whatever port it comes from. */
    private static String peerHost(Channel ch) {
        return ch.remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getHostAddress() : String.valueOf(ch.remoteAddress());
    }

    private final class Session extends SimpleChannelInboundHandler<ByteBuf> {
        private ScheduledFuture<?> ticks;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            ch.attr(LIVENESS).set(new ControlLiveness(clock, limits.heartbeat()));
            ch.eventLoop().schedule(() -> {
                if (ch.isActive() && ch.attr(ROUTER).get() == null) {
                    helloTimeouts.incrementAndGet();
                    LOG.debug("control peer {} said no Hello within {} ms; closing", ch.remoteAddress(),
                            limits.helloDeadlineNanos() / 1_000_000);
                    ch.close();
                }
            }, limits.helloDeadlineNanos(), TimeUnit.NANOSECONDS);
            long poll = limits.heartbeat().pollNanos();
            ticks = ch.eventLoop().scheduleAtFixedRate(() -> tick(ch), poll, poll, TimeUnit.NANOSECONDS);
            ctx.fireChannelActive();
        }

        /** Heartbeats to an identified router, and the end of a router's session once it falls silent. */
        private void tick(Channel ch) {
            String router = ch.attr(ROUTER).get();
            if (router == null || !ch.isActive()) {
                return;
            }
            ControlLiveness liveness = ch.attr(LIVENESS).get();
            switch (liveness.poll()) {
                case HEARTBEAT:
                    ch.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(sequence.incrementAndGet(),
                            new ControlMessage.Heartbeat())));
                    break;
                case SILENT:
                    silentRouters.incrementAndGet();
                    LOG.warn("router {} at {} silent for {} ms; closing its control session", router, ch.remoteAddress(),
                            liveness.silenceNanos() / 1_000_000);
                    ch.close();
                    break;
                default:
                    break;
            }
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
            ctx.channel().attr(LIVENESS).get().heard();
            ControlFrame f = ControlCodec.decode(body.nioBuffer());
            if (!f.valid()) {
                refuse(ctx, -1, AlarmLog.Kind.MALFORMED_FRAME,
                        "malformed control frame: " + f.reject() + " (" + f.detail() + ")");
                return;
            }
            String router = ctx.channel().attr(ROUTER).get();
            ControlMessage m = f.message();
            if (router == null) {
                if (!(m instanceof ControlMessage.Hello hello)) {
                    refuse(ctx, f.sequence(), AlarmLog.Kind.PROTOCOL_VIOLATION,
                            "the first message must be Hello, got " + m.getClass().getSimpleName());
                    return;
                }
                if (!knownRouters.contains(hello.routerId())) {
                    refuse(ctx, f.sequence(), AlarmLog.Kind.UNKNOWN_ROUTER,
                            "no router '" + hello.routerId() + "' in this broker's topology");
                    return;
                }
                String refusal = alreadyConnected(ctx.channel(), hello.routerId());
                if (refusal != null) {
                    duplicateSessions.incrementAndGet();
                    refuse(ctx, f.sequence(), hello.routerId(), AlarmLog.Kind.DUPLICATE_ROUTER, refusal);
                    return;
                }
                unidentified.remove(ctx.channel());
                greet(ctx.channel(), hello.routerId());
                return;
            }
            if (m instanceof ControlMessage.Heartbeat) {
                return; // heard, which is all it says
            }
            if (m instanceof ControlMessage.Ack ack) {
                unacked(ctx.channel()).remove(ack.sequence());
                outcomes.acknowledged(router, ack.sequence());
            } else if (m instanceof ControlMessage.Nack nack) {
                boolean outstanding = unacked(ctx.channel()).remove(nack.sequence());
                String reason = AlarmLog.clean(nack.reason(), AlarmLog.MAX_MESSAGE);
                InstallOutcomes.Refusal install = outcomes.refused(router, nack.sequence(), reason);
                // no sequence number in the alarm: the same refusal repeated folds into one; a Nack of
                // nothing outstanding is the peer's noise, rate-limited, not a decision
                alarms.raise(router, install != null ? AlarmLog.Kind.INSTALL_REFUSED
                        : outstanding ? AlarmLog.Kind.GENERAL : AlarmLog.Kind.PROTOCOL_VIOLATION, reason);
                LOG.warn("router {} refused #{}: {}", router, nack.sequence(), reason);
            } else if (m instanceof ControlMessage.FlowReport report) {
                int ignored = reports.accept(router, report, desired.getOrDefault(router, Map.of()), s -> {
                    String why = "flow " + s.flowId() + " needs " + s.shortfall() + " B/s more than congestion control"
                            + " found on its link (assured " + s.assuredRate() + " B/s)";
                    alarms.raise(router, AlarmLog.Kind.CONGESTION_UNMET, "flow " + s.flowId(), why);
                    LOG.warn("router {}: {}", router, why);
                    shortfalls.accept(router, s);
                });
                if (ignored > 0) {
                    LOG.debug("router {}: {} flow sample(s) ignored: flows the broker did not install there, or older than"
                            + " those kept", router, ignored);
                }
            } else if (m instanceof ControlMessage.RouterReport report) {
                if (counters.accept(router, report) > 0) {
                    LOG.debug("router {} reported more than {} links; the rest are not kept", router, CounterReports.MAX_LINKS);
                }
            } else {
                refuse(ctx, f.sequence(), AlarmLog.Kind.PROTOCOL_VIOLATION,
                        "a router may not send " + m.getClass().getSimpleName());
            }
        }

        /**
         * Why a session for {@code router} cannot start on {@code ch}: another connection holds it
         * and is alive. {@code null} if none does, or if it has been silent for the heartbeat
         * timeout (the new one then takes over; its closing is logged).
         */
        private String alreadyConnected(Channel ch, String router) {
            Channel old = sessions.get(router);
            if (old == null || old == ch || !old.isActive()) {
                return null;
            }
            ControlLiveness l = old.attr(LIVENESS).get();
            if (l != null && l.silent()) {
                LOG.warn("router {}: the session from {} has been silent for {} ms; {} takes over", router,
                        old.remoteAddress(), l.silenceNanos() / 1_000_000, ch.remoteAddress());
                return null;
            }
            return "router '" + router + "' is already connected from " + old.remoteAddress()
                    + "; a second session from " + peerHost(ch) + " is refused (two routers with one identity?)";
        }

        /** Binds the session to its router (replacing an older, dead one) and resynchronises it. */
        private void greet(Channel ch, String router) {
            ch.attr(ROUTER).set(router);
            Channel old = sessions.put(router, ch);
            if (old != null && old != ch) {
                old.close();
            }
            outcomes.resynchronising(router);
            ControlMessage.OutLinks links = outLinks.get(router);
            if (links != null) {
                send(router, ch, links);
            }
            List<ControlMessage.InstallFlow> flows = new ArrayList<>(
                    desired.getOrDefault(router, new LinkedHashMap<>()).values());
            for (ControlMessage.InstallFlow flow : flows) {
                send(router, ch, flow);
            }
            // connected before the router can read the end of its resynchronisation, and pending
            // until it acknowledges it
            long end = awaitAck(ch);
            ch.attr(RESYNC_SENT).set(true);
            write(ch, end, new ControlMessage.SyncEnd());
            presence.connected(router, String.valueOf(ch.remoteAddress()));
            LOG.info("router {} connected from {}; resynchronised {} flow(s)", router, ch.remoteAddress(), flows.size());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ticks != null) {
                ticks.cancel(false);
            }
            String router = ctx.channel().attr(ROUTER).get();
            if (router != null && sessions.remove(router, ctx.channel())) {
                presence.disconnected(router);
                if (!closing) {
                    alarms.raise(router, AlarmLog.Kind.SESSION_LOST, "control session lost");
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (alarms.raise(peerHost(ctx.channel()), AlarmLog.Kind.PEER_ERROR, cause.toString())) {
                LOG.warn("control peer {}: {}; disconnecting it", ctx.channel().remoteAddress(),
                        AlarmLog.clean(cause.toString(), AlarmLog.MAX_MESSAGE));
            }
            ctx.close();
        }
    }

    @Override
    public void close() {
        closing = true;
        server.close().syncUninterruptibly();
        sessions.values().forEach(Channel::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
