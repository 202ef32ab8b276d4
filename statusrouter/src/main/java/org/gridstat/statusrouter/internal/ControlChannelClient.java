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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's end of the control channel: a TCP connection to its broker. It introduces itself
 * with {@code Hello}, applies each {@code InstallFlow} and {@code RemoveFlow} on the data path and
 * acknowledges it once applied (or refuses it, with the reason), and at {@code SyncEnd} removes the
 * broker's flows the broker no longer sent. A lost connection is retried with growing pauses;
 * flows stay in force meanwhile. Control I/O has a thread of its own, off the data path.
 */
final class ControlChannelClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlChannelClient.class);
    /** Short enough that a standby broker taking over is found within seconds. */
    private static final long MAX_BACKOFF_MS = 2_000;

    private final String nodeId;
    /** The broker replicas, tried in turn: only the leader listens. */
    private final List<InetSocketAddress> brokers;
    private final long reportPeriodMs;
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

    /**
     * @param reportPeriodMs how often the broker's flows' statistics are reported; 0: never
     */
    ControlChannelClient(String nodeId, List<InetSocketAddress> brokers, DataPlane dataPlane, long reportPeriodMs) {
        if (brokers.isEmpty()) {
            throw new IllegalArgumentException("no broker address");
        }
        this.nodeId = nodeId;
        this.brokers = List.copyOf(brokers);
        this.dataPlane = dataPlane;
        this.reportPeriodMs = reportPeriodMs;
    }

    void start() {
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

    /**
     * Sends the statistics of the flows the broker installed, in reports of at most MAX_SAMPLES,
     * then the router's own counters.
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
        List<ControlMessage.FlowSample> samples = new java.util.ArrayList<>();
        org.gridstat.statusrouter.api.RouterCounters counters = dataPlane.counters();
        for (org.gridstat.core.sched.LinkStatistics link : counters.links().values()) {
            for (org.gridstat.core.sched.FlowStatistics f : link.flows()) {
                if (mine.contains(f.flowId())) {
                    org.gridstat.core.sched.QueueStatistics q = f.queue();
                    samples.add(new ControlMessage.FlowSample(f.flowId(), q.departures(), q.departureBytes(),
                            q.overflowDrops(), q.deadlineMisses(), q.backlog(), q.arrivalRate(), q.departureRate()));
                }
            }
        }
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
        InetSocketAddress target = brokers.get(next);
        next = (next + 1) % brokers.size();
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
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    }

    private void send(Channel ch, ControlMessage m) {
        ch.writeAndFlush(Unpooled.wrappedBuffer(ControlCodec.encode(sequence.incrementAndGet(), m)));
    }

    private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            backoffMs = 100;
            next = brokers.indexOf(broker); // stay with the leader when reconnecting
            sentSinceHello.clear();
            send(ctx.channel(), new ControlMessage.Hello(nodeId));
            LOG.info("router {}: control channel to broker {} up", nodeId, broker);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf body) {
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
                FlowEntry entry = new FlowEntry(install.version(), install.variableId(), link, install.spec(),
                        install.intervalsNanos(), install.publisherIntervalNanos(), install.downstreamBudgetNanos(),
                        install.minRestDelayNanos());
                apply(ctx.channel(), seq, FlowCommand.install(entry), flowId, true);
            } else if (m instanceof ControlMessage.RemoveFlow remove) {
                sentSinceHello.add(remove.flowId());
                apply(ctx.channel(), seq, FlowCommand.remove(remove.flowId(), remove.version()), remove.flowId(), false);
            } else if (m instanceof ControlMessage.SyncEnd) {
                removeUnsent(ctx.channel(), seq);
            } else if (m instanceof ControlMessage.OutLinks links) {
                applyOutLinks(ctx.channel(), seq, links);
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
