package org.gridstat.congestion.notice;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.CongestionNotice;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.time.NanoClock;
import org.gridstat.statusrouter.spi.NoticeChannels;
import org.gridstat.statusrouter.spi.NoticeHost;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A router's congestion-notice channels, on TCP at its data port's number: the router-to-router
 * half of back-pressure, and the publishers' end of it.
 *
 * <ul>
 *   <li><b>From next hops and publishers</b> (accepted): a connection introduces itself first
 *       ({@link ControlMessage.NoticePeer}). A router must name one of this router's out-links (they
 *       are named by the next router's id) and, where that link's address is an IP address, connect
 *       from it; its notices are handed to the data path's {@link NoticeRelay}, one at a time (the
 *       connection is not read while one waits), and acknowledged, or refused with the reason. A
 *       publisher (the empty id) names the variables it publishes and is sent the notices for them.
 *       When a router's connection closes, or falls silent for the heartbeat timeout, what it asked
 *       lifts.
 *   <li><b>To previous hops</b> (connected): one connection per previous router, made when there is
 *       advice for it and kept with heartbeats; on every (re)connection the advice in force is sent
 *       whole, so a notice lost with a connection is never lost for good. Advice is state: a
 *       change replaces what was sent, a lift (rate 0) ends it.
 * </ul>
 *
 * Everything but the relay runs on this plane's one thread. Bounded: {@link #MAX_CONNECTIONS}
 * accepted connections, {@link #MAX_PUBLISHED} variables per publisher, one notice in flight per
 * connection, and nothing written to a connection that is not writable (it gets the whole advice
 * when it is again). Malformed, forged or stale frames are counted ({@link NoticeCounter}) and ignored.
 */
public final class NoticePlane implements NoticeChannels {
    private static final Logger LOG = LoggerFactory.getLogger(NoticePlane.class);
    static final int MAX_CONNECTIONS = 256;
    static final int MAX_PUBLISHED = 4096;
    static final long INTRODUCTION_NANOS = TimeUnit.SECONDS.toNanos(5);
    static final long RECONNECT_MIN_MS = 100;
    static final long RECONNECT_MAX_MS = 5_000;
    /** Heartbeat periods a connection to a previous router nothing is asked of any more is kept (5 s by default). */
    static final int IDLE_UPSTREAM_PERIODS = 5;

    private final String nodeId;
    private final NoticeHost host;
    private final List<NoticeHost.OutLink> links;
    /** Per out-link, the address its next hop connects from (its link's IP address), or {@code null}: not checked. */
    private final InetAddress[] linkAddresses;
    private final NanoClock clock;
    private final ControlLiveness.Timing timing;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private Channel server;
    private final CounterArray counters = new CounterArray(NoticeCounter.values().length);

    // --- confined to loop ---
    /** Per hop, per variable, the rate advised (rate 0 is no entry). */
    private final Map<Integer, Map<Long, Integer>> advice = new HashMap<>();
    private final Map<Integer, UpstreamLink> upstreams = new HashMap<>();
    private final Map<Long, Set<Channel>> publishersOf = new HashMap<>();
    private final Set<Inbound> inbound = new HashSet<>();
    /** Per out-link, the accepted connection of its next hop now in force. */
    private final Inbound[] byLink;
    private long sequence;

    private NoticePlane(NoticeHost host, EventLoopGroup group) {
        this.nodeId = host.nodeId();
        this.host = host;
        this.links = List.copyOf(host.outLinks());
        this.clock = host.clock();
        this.timing = host.timing();
        this.group = group;
        this.loop = group.next();
        this.byLink = new Inbound[links.size()];
        this.linkAddresses = new InetAddress[links.size()];
        for (int i = 0; i < links.size(); i++) {
            linkAddresses[i] = literalAddress(links.get(i).host());
        }
    }

    /** The address of a host written as an IP address; {@code null} for a name (not resolved here, so not checked). */
    private static InetAddress literalAddress(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!h.matches("[0-9.]+") && !h.contains(":")) {
            return null;
        }
        try {
            return InetAddress.getByName(h); // a literal: no lookup
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /**
     * Opens the notice channels on TCP at the data port's address for {@code host}'s relay, or
     * returns {@code null} after one log line saying why not: the router then holds its flows and
     * sends no notices.
     */
    public static NoticePlane start(NoticeHost host) {
        String nodeId = host.nodeId();
        InetSocketAddress at = host.dataAddress();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("gridstat-notices", true),
                NioIoHandler.newFactory());
        NoticePlane p = new NoticePlane(host, group);
        try {
            p.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(ControlCodec.MAX_BODY + 4, 0, 4, 0, 4))
                                    .addLast(p.new Inbound());
                        }
                    }).bind(at).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            LOG.warn("router {}: no congestion notices: cannot listen on TCP {} ({}); its flows are held, its previous"
                    + " hops are not told", nodeId, at, e.getMessage());
            return null;
        }
        p.loop.scheduleAtFixedRate(p::pollLiveness, p.timing.pollNanos(), p.timing.pollNanos(), TimeUnit.NANOSECONDS);
        host.adviseTo(p::queueAdvice);
        LOG.info("router {}: congestion notices on TCP {}", nodeId, p.server.localAddress());
        return p;
    }

    /** The plane's one thread (tests hold it up with it). */
    EventLoop loop() {
        return loop;
    }

    InetSocketAddress localAddress() {
        return (InetSocketAddress) server.localAddress();
    }

    long counter(NoticeCounter c) {
        return counters.get(c.ordinal());
    }

    /** Bytes queued on the accepted connections, not yet taken by their sockets. */
    long queuedBytes() {
        return loop.submit(() -> {
            long n = 0;
            for (Inbound in : inbound) {
                io.netty.channel.ChannelOutboundBuffer b = in.channel.unsafe().outboundBuffer();
                n += b == null ? 0 : b.totalPendingWriteBytes();
            }
            return n;
        }).syncUninterruptibly().getNow();
    }

    private void count(NoticeCounter c) {
        counters.increment(c.ordinal());
    }

    private void send(Channel ch, ControlMessage m) {
        ch.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(++sequence, m)));
    }

    // --- advice out -------------------------------------------------------------------------

    private record HopVariable(int hop, long variable) {
    }

    /**
     * Advice from the data path, the latest per hop and variable until this plane's loop takes it:
     * advice is state, so a burst of changes costs one entry each (bounded by the flows' variables
     * and their previous hops) and one task, not a task each.
     */
    private final java.util.concurrent.ConcurrentHashMap<HopVariable, Integer> pendingAdvice =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicBoolean adviceQueued = new java.util.concurrent.atomic.AtomicBoolean();

    /** From the data path: keeps the latest advice and wakes this plane's loop once. */
    void queueAdvice(int hop, long variable, int rate) {
        pendingAdvice.put(new HopVariable(hop, variable), rate);
        if (!adviceQueued.getAndSet(true)) {
            loop.execute(this::takeAdvice);
        }
    }

    /** Whether every advice queued so far has been taken (tests). */
    boolean adviceTaken() {
        return pendingAdvice.isEmpty() && !adviceQueued.get();
    }

    private void takeAdvice() {
        adviceQueued.set(false); // first: advice queued from now on wakes the loop again
        for (HopVariable k : pendingAdvice.keySet()) {
            Integer rate = pendingAdvice.remove(k);
            if (rate != null) {
                advised(k.hop(), k.variable(), rate);
            }
        }
    }

    /** The relay's advice for a hop, on this plane's loop. */
    private void advised(int hop, long variable, int rate) {
        Map<Long, Integer> forHop = advice.computeIfAbsent(hop, h -> new HashMap<>());
        if (rate == 0) {
            forHop.remove(variable);
        } else {
            forHop.put(variable, rate);
        }
        if (hop == FlowEntry.PUBLISHER) {
            for (Channel ch : publishersOf.getOrDefault(variable, Set.of())) {
                if (!tell(ch, variable, rate)) {
                    ch.pipeline().get(Inbound.class).unsent.add(variable);
                }
            }
            return;
        }
        Upstream u = host.previousHop(hop);
        if (u == null || u.address() == null) {
            count(NoticeCounter.ADVICE_NOT_SENT);
            return;
        }
        upstreams.computeIfAbsent(hop, h -> new UpstreamLink(h, u)).changed(variable, rate);
        if (forHop.isEmpty()) { // nothing asked of that router any more: its connection goes, unless asked again
            loop.schedule(() -> closeIfIdle(hop), IDLE_UPSTREAM_PERIODS * timing.periodNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** Closes the connection to a previous router nothing is asked of, so they do not pile up. */
    private void closeIfIdle(int hop) {
        UpstreamLink link = upstreams.get(hop);
        if (link != null && advice.getOrDefault(hop, Map.of()).isEmpty()) {
            upstreams.remove(hop); // first: its close schedules no reconnection
            advice.remove(hop);
            if (link.channel != null) {
                link.channel.close();
            }
        }
    }

    /** Whether the notice was written: not to a connection that is not writable. */
    private boolean tell(Channel ch, long variable, int rate) {
        if (!ch.isWritable()) {
            count(NoticeCounter.ADVICE_NOT_SENT);
            return false;
        }
        count(NoticeCounter.ADVICE_SENT);
        send(ch, new CongestionNotice(variable, rate));
        return true;
    }

    /**
     * Tells {@code ch} the advice now in force ({@code advised}; absent: lifted) for each variable
     * of {@code unsent}, those whose change was not written while it was not writable; they leave
     * the set as they are written.
     */
    private void tellUnsent(Channel ch, Set<Long> unsent, Map<Long, Integer> advised) {
        for (Long v : List.copyOf(unsent)) {
            if (!tell(ch, v, advised.getOrDefault(v, 0))) {
                return;
            }
            unsent.remove(v);
        }
    }

    /** One connection to a previous router, made while there is advice for it. */
    private final class UpstreamLink {
        final int hop;
        final Upstream upstream;
        Channel channel;
        ControlLiveness liveness;
        boolean connecting;
        long backoffMs = RECONNECT_MIN_MS;
        /** Variables whose change (a lift among them) was not written to this connection: it was not writable. */
        final Set<Long> unsent = new LinkedHashSet<>();

        UpstreamLink(int hop, Upstream upstream) {
            this.hop = hop;
            this.upstream = upstream;
        }

        void changed(long variable, int rate) {
            if (channel != null && channel.isActive()) {
                if (!tell(channel, variable, rate)) {
                    unsent.add(variable);
                }
            } else {
                connect();
            }
        }

        void connect() {
            if (connecting || (channel != null && channel.isActive()) || advice.getOrDefault(hop, Map.of()).isEmpty()) {
                return; // nothing advised: a lost connection already lifted it there
            }
            connecting = true;
            InetSocketAddress to = new InetSocketAddress(upstream.address().host(), upstream.address().port());
            ChannelFuture f = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(ControlCodec.MAX_BODY + 4, 0, 4, 0, 4))
                                    .addLast(new Outbound(UpstreamLink.this));
                        }
                    }).connect(to);
            f.addListener(done -> {
                connecting = false;
                if (!done.isSuccess()) {
                    count(NoticeCounter.CONNECT_FAILURES);
                    LOG.debug("router {}: cannot reach {} for congestion notices: {}", nodeId, upstream, done.cause().toString());
                    retryLater();
                    return;
                }
                channel = f.channel(); // the back-off resets once the peer acknowledges: one that closes at once is not a storm
                liveness = new ControlLiveness(clock, timing);
                send(channel, new ControlMessage.NoticePeer(nodeId));
                unsent.clear(); // the lost connection lifted all it had been told
                sendWhole();
            });
        }

        /** Everything advised to this hop, as after a (re)connection or a stall. */
        void sendWhole() {
            advice.getOrDefault(hop, Map.of()).forEach((variable, rate) -> {
                if (!tell(channel, variable, rate)) {
                    unsent.add(variable);
                }
            });
        }

        void retryLater() {
            long wait = backoffMs;
            backoffMs = Math.min(RECONNECT_MAX_MS, backoffMs * 2);
            loop.schedule(this::connect, wait, TimeUnit.MILLISECONDS);
        }

        void closed() {
            channel = null;
            liveness = null;
            if (!upstreams.containsKey(hop) || upstreams.get(hop) != this) {
                return;
            }
            retryLater();
        }
    }

    /** What a previous router says back: acknowledgements, refusals, heartbeats. */
    private final class Outbound extends SimpleChannelInboundHandler<ByteBuf> {
        private final UpstreamLink link;

        Outbound(UpstreamLink link) {
            this.link = link;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
            if (link.liveness != null) {
                link.liveness.heard();
            }
            ControlFrame f = ControlCodec.decode(body.nioBuffer());
            if (!f.valid()) {
                count(NoticeCounter.FRAMES_REFUSED);
            } else if (f.message() instanceof ControlMessage.Ack) {
                count(NoticeCounter.ADVICE_ACKED);
                link.backoffMs = RECONNECT_MIN_MS;
            } else if (f.message() instanceof ControlMessage.Nack n) {
                count(NoticeCounter.ADVICE_REFUSED);
                LOG.debug("router {}: {} refused notice #{}: {}", nodeId, link.upstream, n.sequence(), n.reason());
            } else if (!(f.message() instanceof ControlMessage.Heartbeat)) {
                count(NoticeCounter.FRAMES_REFUSED);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) { // what was not sent while it stalled, lifts included
                tellUnsent(ctx.channel(), link.unsent, advice.getOrDefault(link.hop, Map.of()));
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            count(NoticeCounter.PEERS_LOST);
            link.closed();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("router {}: notice connection to {}: {}", nodeId, link.upstream, cause.toString());
            ctx.close();
        }
    }

    // --- notices in ---------------------------------------------------------------------------

    /** An accepted connection: a next hop's or a publisher's. */
    private final class Inbound extends SimpleChannelInboundHandler<ByteBuf> {
        Channel channel;
        /** {@code null} until introduced; "" for a publisher. */
        String peer;
        int link = -1;
        long lastSequence = Long.MIN_VALUE;
        ControlLiveness liveness;
        long openedAt;
        final Set<Long> variables = new LinkedHashSet<>();
        /** A publisher's variables whose change (a lift among them) was not written: the connection was not writable. */
        final Set<Long> unsent = new LinkedHashSet<>();

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            if (inbound.size() >= MAX_CONNECTIONS) {
                count(NoticeCounter.PEERS_REFUSED);
                ctx.close();
                return;
            }
            inbound.add(this);
            liveness = new ControlLiveness(clock, timing);
            openedAt = clock.nanoTime();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
            liveness.heard();
            ControlFrame f = ControlCodec.decode(body.nioBuffer());
            if (!f.valid()) {
                count(NoticeCounter.FRAMES_REFUSED);
                reply(new ControlMessage.Nack(-1, f.reject() + ": " + f.detail()));
                return;
            }
            ControlMessage m = f.message();
            if (f.sequence() <= lastSequence) {
                count(m instanceof CongestionNotice ? NoticeCounter.NOTICES_STALE : NoticeCounter.FRAMES_REFUSED);
                reply(new ControlMessage.Nack(f.sequence(), "sequence " + f.sequence() + " is not above "
                        + lastSequence + ": stale"));
                return;
            }
            lastSequence = f.sequence();
            if (peer == null) {
                introduce(f.sequence(), m);
            } else if (m instanceof CongestionNotice n && !peer.isEmpty()) {
                noticed(f.sequence(), n);
            } else if (m instanceof ControlMessage.Publishes p && peer.isEmpty()) {
                publishes(f.sequence(), p);
            } else if (m instanceof ControlMessage.Ack) {
                count(NoticeCounter.ADVICE_ACKED);
            } else if (!(m instanceof ControlMessage.Heartbeat)) {
                count(NoticeCounter.FRAMES_REFUSED);
                reply(new ControlMessage.Nack(f.sequence(), m.getClass().getSimpleName()
                        + " does not belong on this notice channel"));
            }
        }

        private void introduce(long seq, ControlMessage m) {
            if (!(m instanceof ControlMessage.NoticePeer p)) {
                refuse(seq, "introduce yourself first (NoticePeer)");
                return;
            }
            if (p.routerId().isEmpty()) {
                peer = "";
                reply(new ControlMessage.Ack(seq));
                return;
            }
            int at = -1;
            for (int i = 0; i < links.size(); i++) {
                if (links.get(i).name().equals(p.routerId())) {
                    at = i;
                }
            }
            if (at < 0) {
                refuse(seq, "router " + nodeId + " has no out-link to '" + p.routerId() + "'");
                return;
            }
            InetAddress expected = linkAddresses[at];
            InetAddress from = ((InetSocketAddress) channel.remoteAddress()).getAddress();
            if (expected != null && !expected.equals(from)) {
                refuse(seq, "router '" + p.routerId() + "' is at " + expected.getHostAddress() + ", not " + from.getHostAddress());
                return;
            }
            peer = p.routerId();
            link = at;
            Inbound before = byLink[at];
            byLink[at] = this; // first: the one replaced lifts nothing when it closes
            if (before != null) {
                before.channel.close();
            }
            reply(new ControlMessage.Ack(seq));
        }

        /**
         * An acknowledgement or refusal, written only while the connection is writable: a peer
         * that sends and never reads would otherwise have its replies queued without bound.
         */
        private void reply(ControlMessage m) {
            if (!channel.isWritable()) {
                count(NoticeCounter.REPLIES_NOT_SENT);
                return;
            }
            send(channel, m);
        }

        private void refuse(long seq, String why) {
            count(NoticeCounter.PEERS_REFUSED);
            LOG.debug("router {}: notice connection from {} refused: {}", nodeId, channel.remoteAddress(), why);
            reply(new ControlMessage.Nack(seq, why));
            channel.close();
        }

        private void noticed(long seq, CongestionNotice n) {
            count(NoticeCounter.NOTICES_RECEIVED);
            channel.config().setAutoRead(false); // one notice in flight per connection
            int at = link;
            host.onRelay(relay -> {
                NoticeRelay.Verdict v = relay.noticed(at, n.variableId(), n.rateHz());
                channel.eventLoop().execute(() -> {
                    if (v == NoticeRelay.Verdict.APPLIED) {
                        count(NoticeCounter.NOTICES_APPLIED);
                        reply(new ControlMessage.Ack(seq));
                    } else {
                        count(NoticeCounter.NOTICES_REFUSED);
                        reply(new ControlMessage.Nack(seq, v == NoticeRelay.Verdict.HRT
                                ? "an HRT flow is never held" : "no flow of variable "
                                + Long.toUnsignedString(n.variableId()) + " on the link to " + peer));
                    }
                    channel.config().setAutoRead(true);
                });
            });
        }

        private void publishes(long seq, ControlMessage.Publishes p) {
            long[] named = p.variableIds();
            if (variables.size() + named.length > MAX_PUBLISHED) {
                count(NoticeCounter.FRAMES_REFUSED);
                reply(new ControlMessage.Nack(seq, "at most " + MAX_PUBLISHED + " variables per publisher"));
                return;
            }
            Map<Long, Integer> forPublishers = advice.getOrDefault(FlowEntry.PUBLISHER, Map.of());
            for (long v : named) {
                if (variables.add(v)) {
                    count(NoticeCounter.PUBLISHER_VARIABLES);
                    publishersOf.computeIfAbsent(v, k -> new LinkedHashSet<>()).add(channel);
                    Integer rate = forPublishers.get(v);
                    if (rate != null && !tell(channel, v, rate)) {
                        unsent.add(v);
                    }
                }
            }
            reply(new ControlMessage.Ack(seq));
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (channel.isWritable() && "".equals(peer)) { // what was not sent while it stalled, lifts included
                tellUnsent(channel, unsent, advice.getOrDefault(FlowEntry.PUBLISHER, Map.of()));
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!inbound.remove(this)) {
                return; // refused at once
            }
            count(NoticeCounter.PEERS_LOST);
            for (long v : variables) {
                Set<Channel> s = publishersOf.get(v);
                if (s != null && s.remove(channel) && s.isEmpty()) {
                    publishersOf.remove(v);
                }
            }
            if (link >= 0 && byLink[link] == this) {
                byLink[link] = null;
                int at = link;
                host.onRelay(relay -> relay.linkLost(at));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("router {}: notice connection from {}: {}", nodeId, ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }

    // --- liveness -----------------------------------------------------------------------------

    private void pollLiveness() {
        long now = clock.nanoTime();
        for (Inbound in : List.copyOf(inbound)) {
            if (in.peer == null && now - in.openedAt > INTRODUCTION_NANOS) {
                in.refuse(-1, "no introduction within " + TimeUnit.NANOSECONDS.toSeconds(INTRODUCTION_NANOS) + " s");
            } else {
                keepAlive(in.channel, in.liveness);
            }
        }
        for (UpstreamLink u : upstreams.values()) {
            if (u.channel != null && u.liveness != null) {
                keepAlive(u.channel, u.liveness);
            }
        }
    }

    private void keepAlive(Channel ch, ControlLiveness liveness) {
        switch (liveness.poll()) {
            case HEARTBEAT -> {
                if (ch.isWritable()) {
                    send(ch, new ControlMessage.Heartbeat());
                }
            }
            case SILENT -> {
                LOG.info("router {}: notice connection {} silent for {} ms: closed", nodeId, ch.remoteAddress(),
                        TimeUnit.NANOSECONDS.toMillis(liveness.silenceNanos()));
                ch.close();
            }
            default -> { }
        }
    }

    @Override
    public void close() {
        host.adviseTo((hop, variable, rate) -> { });
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
