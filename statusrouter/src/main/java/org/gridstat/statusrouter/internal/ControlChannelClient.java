package org.gridstat.statusrouter.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine.Outcome;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's end of the control channel: a TCP connection to its broker. It introduces itself
 * with {@code Hello}, applies each {@code InstallFlow} and {@code RemoveFlow} on the data path and
 * acknowledges it once applied (or refuses it, with the reason), and at {@code SyncEnd} removes the
 * broker's flows the broker no longer sent. A lost connection is retried with growing pauses;
 * flows stay in force meanwhile. Control I/O has a thread of its own, off the data path.
 *
 * <p>Both ends send heartbeats. A broker that says nothing for the heartbeat timeout is given up
 * and the next replica tried at once: a frozen leader's kernel keeps the connection open (and
 * even accepts new ones), so without this a router would stay with it while a standby leads.
 */
final class ControlChannelClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlChannelClient.class);
    /** Short enough that a standby broker taking over is found within seconds. */
    private static final long MAX_BACKOFF_MS = 2_000;
    /** How many heartbeat timeouts a replica given up as silent is passed over, while others are listed. */
    private static final int SHUN_TIMEOUTS = 3;

    private final String nodeId;
    /** The broker replicas, tried in turn: only the leader listens. */
    private final List<InetSocketAddress> brokers;
    private final long reportPeriodMs;
    private final ControlLiveness.Timing heartbeat;
    private final NanoClock clock;
    private int next;
    private volatile InetSocketAddress broker;
    /** Replaced when the broker's out-links restart it. */
    private volatile DataPlane dataPlane;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("gridstat-control", true), NioIoHandler.newFactory());
    private final AtomicLong sequence = new AtomicLong();
    /** Flows the broker installed here, and those it has sent since the last Hello. */
    private final Set<Long> brokerFlows = new HashSet<>();
    private final Set<Long> sentSinceHello = new HashSet<>();
    private volatile boolean closed;
    private volatile Channel channel;
    private long backoffMs = 100;
    /** The replica last given up as silent, and when: passed over for a while if others are listed. */
    private InetSocketAddress silentBroker;
    private long silentSince;

    /**
     * @param reportPeriodMs how often the broker's flows' statistics are reported; 0: never
     */
    ControlChannelClient(String nodeId, List<InetSocketAddress> brokers, DataPlane dataPlane, long reportPeriodMs) {
        this(nodeId, brokers, dataPlane, reportPeriodMs, ControlLiveness.Timing.DEFAULT, SystemNanoClock.INSTANCE);
    }

    /**
     * @param heartbeat how often to send heartbeats, and how long a silent broker is kept
     */
    ControlChannelClient(String nodeId, List<InetSocketAddress> brokers, DataPlane dataPlane, long reportPeriodMs,
                         ControlLiveness.Timing heartbeat, NanoClock clock) {
        this.heartbeat = heartbeat;
        this.clock = clock;
        if (brokers.isEmpty()) {
            throw new IllegalArgumentException("no broker address");
        }
        this.nodeId = nodeId;
        this.brokers = List.copyOf(brokers);
        this.dataPlane = dataPlane;
        this.reportPeriodMs = reportPeriodMs;
    }

    void start() {
        dataPlane.onUnmet(this::alarmSoon);
        connect();
        if (reportPeriodMs > 0) {
            group.scheduleAtFixedRate(() -> {
                try {
                    report();
                } catch (RuntimeException e) { // an exception would cancel the schedule for good
                    LOG.warn("router {}: flow report failed: {}", nodeId, e.toString());
                }
            }, reportPeriodMs, reportPeriodMs, TimeUnit.MILLISECONDS);
        }
    }

    /** Least time between two reports sent early for an unmet need. */
    static final long ALARM_REPORT_GAP_NANOS = 100_000_000L;
    private final java.util.concurrent.atomic.AtomicBoolean alarmQueued = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long lastAlarmReport = Long.MIN_VALUE;

    /**
     * Congestion control found a need it cannot meet: the flow report, whose shortfall is the
     * broker's alarm and global adaptation's cue, goes now rather than at the next period; at most
     * one such report each {@link #ALARM_REPORT_GAP_NANOS}. Called on the data path: hands over.
     */
    private void alarmSoon() {
        if (reportPeriodMs <= 0 || alarmQueued.getAndSet(true)) {
            return;
        }
        long wait = Math.max(0, lastAlarmReport + ALARM_REPORT_GAP_NANOS - clock.nanoTime());
        group.schedule(() -> {
            alarmQueued.set(false);
            lastAlarmReport = clock.nanoTime();
            try {
                report();
            } catch (RuntimeException e) {
                LOG.warn("router {}: flow report failed: {}", nodeId, e.toString());
            }
        }, lastAlarmReport == Long.MIN_VALUE ? 0 : wait, TimeUnit.NANOSECONDS);
    }

    /**
     * Sends the statistics of the flows the broker installed, in reports of at most MAX_SAMPLES,
     * then the router's own counters. Each report ends the flows' latency period: a flow's latency
     * p99 is over the events it sent since the previous report. Control thread.
     */
    private void report() {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            return;
        }
        Set<Long> mine;
        synchronized (brokerFlows) {
            mine = new HashSet<>(brokerFlows);
        }
        DataPlane plane = dataPlane;
        // ends the latency period: each flow's p99 is over what it sent since the previous report
        org.gridstat.statusrouter.api.RouterCounters counters = plane.reportCounters();
        List<ControlMessage.FlowSample> samples = RouterReports.flowSamples(counters, mine::contains, plane::reassignments);
        long now = System.currentTimeMillis();
        for (int i = 0; i < samples.size(); i += ControlMessage.FlowReport.MAX_SAMPLES) {
            send(ch, new ControlMessage.FlowReport(now,
                    samples.subList(i, Math.min(samples.size(), i + ControlMessage.FlowReport.MAX_SAMPLES))));
        }
        RouterReports.of(counters, now).forEach(r -> send(ch, r));
    }

    boolean connected() {
        Channel c = channel;
        return c != null && c.isActive();
    }

    private void connect() {
        if (closed) {
            return;
        }
        InetSocketAddress candidate = brokers.get(next);
        next = (next + 1) % brokers.size();
        if (candidate.equals(silentBroker) && brokers.size() > 1) {
            if (clock.nanoTime() - silentSince < SHUN_TIMEOUTS * heartbeat.timeoutNanos()) {
                // a frozen leader's kernel still accepts connections: try the others until one leads
                candidate = brokers.get(next);
                next = (next + 1) % brokers.size();
            } else {
                silentBroker = null;
            }
        }
        InetSocketAddress target = candidate;
        broker = target;
        new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(ControlCodec.MAX_BODY + 4, 0, 4, 0, 4))
                                .addLast(new Handler());
                    }
                })
                .connect(target).addListener(f -> {
                    if (!f.isSuccess()) {
                        retryLater("cannot reach broker " + target + ": " + f.cause().getMessage());
                    }
                });
    }

    private void retryLater(String why) {
        if (closed) {
            return;
        }
        LOG.warn("router {}: {}; retrying in {} ms", nodeId, why, backoffMs);
        group.schedule(this::connect, backoffMs, TimeUnit.MILLISECONDS);
        backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(100, backoffMs * 2));
    }

    private void send(Channel ch, ControlMessage m) {
        ch.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(sequence.incrementAndGet(), m)));
    }

    private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
        private ControlLiveness liveness;
        private ScheduledFuture<?> ticks;
        /** The broker fell silent: the next connection goes to the next replica. */
        private boolean gaveUp;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            liveness = new ControlLiveness(clock, heartbeat);
            long poll = heartbeat.pollNanos();
            ticks = ctx.executor().scheduleAtFixedRate(() -> tick(ctx), poll, poll, TimeUnit.NANOSECONDS);
            backoffMs = 100;
            next = brokers.indexOf(broker); // stay with the leader when reconnecting
            sentSinceHello.clear();
            send(ctx.channel(), new ControlMessage.Hello(nodeId));
            LOG.info("router {}: control channel to broker {} up", nodeId, broker);
        }

        /** Heartbeats to the broker, and giving it up once it is silent. Control thread. */
        private void tick(ChannelHandlerContext ctx) {
            if (!ctx.channel().isActive()) {
                return;
            }
            switch (liveness.poll()) {
                case HEARTBEAT:
                    send(ctx.channel(), new ControlMessage.Heartbeat());
                    break;
                case SILENT:
                    gaveUp = true;
                    silentBroker = broker;
                    silentSince = clock.nanoTime();
                    LOG.warn("router {}: broker {} silent for {} ms; trying the next replica", nodeId, broker,
                            liveness.silenceNanos() / 1_000_000);
                    ctx.close();
                    break;
                default:
                    break;
            }
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
            liveness.heard();
            ControlFrame f = ControlCodec.decode(body.nioBuffer());
            if (!f.valid()) {
                LOG.warn("router {}: refused a control frame from the broker: {}", nodeId, f);
                send(ctx.channel(), new ControlMessage.Nack(-1, f.reject() + ": " + f.detail()));
                return;
            }
            long seq = f.sequence();
            ControlMessage m = f.message();
            if (m instanceof ControlMessage.InstallFlow install) {
                int link = dataPlane.outLinks().indexOf(install.link());
                if (link < 0) {
                    send(ctx.channel(), new ControlMessage.Nack(seq, "router " + nodeId + " has no out-link '" + install.link() + "'"));
                    return;
                }
                long flowId = install.spec().flowId();
                sentSinceHello.add(flowId);
                apply(ctx.channel(), seq, FlowCommand.install(install.entry(link,
                        dataPlane.upstreamHops().numbersOf(install.upstream()))), flowId, true);
            } else if (m instanceof ControlMessage.RemoveFlow remove) {
                sentSinceHello.add(remove.flowId());
                apply(ctx.channel(), seq, FlowCommand.remove(remove.flowId(), remove.version()), remove.flowId(), false);
            } else if (m instanceof ControlMessage.SyncEnd) {
                silentBroker = null; // a leader answers: none is passed over any more
                removeUnsent(ctx.channel(), seq);
            } else if (m instanceof ControlMessage.OutLinks links) {
                applyOutLinks(ctx.channel(), seq, links);
            } else if (m instanceof ControlMessage.Nack nack) {
                LOG.warn("router {}: broker {} refused #{}: {}", nodeId, broker, nack.sequence(), nack.reason());
            } else if (m instanceof ControlMessage.Heartbeat) {
                // heard, which is all it says
            } else {
                LOG.debug("router {}: ignoring {}", nodeId, m);
            }
        }

        private void apply(Channel ch, long seq, FlowCommand command, long flowId, boolean install) {
            dataPlane.submit(List.of(command), (c, outcome, reason) -> {
                if (outcome == Outcome.REJECTED) {
                    send(ch, new ControlMessage.Nack(seq, reason));
                    return;
                }
                synchronized (brokerFlows) {
                    if (install) {
                        brokerFlows.add(flowId);
                    } else {
                        brokerFlows.remove(flowId);
                    }
                }
                send(ch, new ControlMessage.Ack(seq)); // stale is acknowledged too: the router already has it
            });
        }

        /** After a resync, the broker's flows it did not send again are no longer wanted. */
        private void removeUnsent(Channel ch, long seq) {
            List<FlowCommand> removals = new java.util.ArrayList<>();
            synchronized (brokerFlows) {
                for (FlowEntry f : dataPlane.flows()) {
                    if (brokerFlows.contains(f.flowId()) && !sentSinceHello.contains(f.flowId())) {
                        removals.add(FlowCommand.remove(f.flowId(), f.version()));
                        brokerFlows.remove(f.flowId());
                    }
                }
            }
            dataPlane.submit(removals, null);
            send(ch, new ControlMessage.Ack(seq));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            channel = null;
            if (ticks != null) {
                ticks.cancel(false);
            }
            if (gaveUp) {
                next = (brokers.indexOf(broker) + 1) % brokers.size();
                backoffMs = 0; // another replica may lead already: try it now
            }
            retryLater("control channel to broker " + broker + " closed");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("router {}: control channel error: {}", nodeId, cause.toString());
            ctx.close();
        }
    }

    /** Where the broker's out-links go; without one they are refused. */
    private RouterPlane outLinkHost;
    /** The broker's out-links in force. */
    private List<ControlMessage.OutLink> brokerLinks = List.of();

    /** Takes the out-links the broker gives into {@code plane}, restarting it when they change. */
    ControlChannelClient takingOutLinksInto(RouterPlane plane) {
        this.outLinkHost = plane;
        return this;
    }

    /**
     * Runs the broker's out-links beside the router's own (which win, see {@link BrokerLinks}). A
     * change restarts the data plane, which loses the broker's flows: they follow in the same
     * resynchronisation. Acknowledged if every link was taken, else refused with each reason.
     */
    private void applyOutLinks(Channel ch, long seq, ControlMessage.OutLinks message) {
        if (outLinkHost == null) {
            send(ch, new ControlMessage.Nack(seq, "router " + nodeId + " takes no out-links from a broker"));
            return;
        }
        BrokerLinks links = BrokerLinks.resolve(outLinkHost.ownLinks(), message);
        for (String refusal : links.refusals) {
            LOG.warn("router {}: {}", nodeId, refusal);
        }
        if (!links.taken.equals(brokerLinks)) {
            try {
                outLinkHost.relink(links.configs);
                brokerLinks = links.taken;
            } catch (RuntimeException e) {
                send(ch, new ControlMessage.Nack(seq, e.getMessage()));
                return;
            } finally {
                dataPlane = outLinkHost.current();
                dataPlane.onUnmet(this::alarmSoon);
                synchronized (brokerFlows) {
                    brokerFlows.clear(); // gone with the old data plane
                }
            }
        }
        send(ch, links.refusals.isEmpty() ? new ControlMessage.Ack(seq)
                : new ControlMessage.Nack(seq, String.join("; ", links.refusals)));
    }

    @Override
    public void close() {
        closed = true;
        Channel c = channel;
        if (c != null) {
            c.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
