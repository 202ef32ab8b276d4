package org.gridstat.statusrouter.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.egress.DataPathWarmUp;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.time.Clock;

import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.statusrouter.api.RouterCounters;
import org.gridstat.statusrouter.spi.NoticeChannels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's UDP data plane. The first event loop is the data path: it owns the forwarding
 * engine and every out-link channel, so scheduling takes no locks. Under epoll the data port is
 * bound once per event loop (sharing the port with SO_REUSEPORT, so the kernel spreads senders over
 * loops and keeps each sender on one loop, in order) and read by {@link EpollIngressSocket}s,
 * which allocate nothing per datagram; loops other than the first validate their frames and hand
 * them to the data path. The NIO transport runs one loop and reads through a Netty channel.
 */
final class DataPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPlane.class);
    private static final WriteBufferWaterMark EGRESS_WATER_MARK = new WriteBufferWaterMark(256 << 10, 1 << 20);

    private final RouterSettings settings;
    private final EventLoopGroup group;
    private final boolean epoll;
    private final NanoClock monoClock;
    private final Clock epochClock;
    private final List<EpollIngressSocket> ingressSockets = new ArrayList<>();
    private final List<Channel> ingressChannels = new ArrayList<>();
    private final List<Channel> egress = new ArrayList<>();
    private final List<DataPathCounters> counters = new ArrayList<>();
    private IoEventLoop dataLoop;
    private HandoffSignal handoffSignal;
    private InetSocketAddress localAddress;
    private InetSocketAddress priorityAddress;
    private DataPath dataPath;
    /** The previous hops the broker's flows name, numbered for this data plane's life. */
    private final UpstreamHops upstreamHops = new UpstreamHops();
    /** Congestion notices, with congestion control on and its channels open; else {@code null}. */
    private NoticeChannels notices;
    /** The out-links the kernel shapes; {@code null} until opened. */
    private KernelLinks kernelLinks;

    private DataPlane(RouterSettings settings, boolean epoll, EventLoopGroup group, NanoClock monoClock,
                      Clock epochClock) {
        this.settings = settings;
        this.epoll = epoll;
        this.group = group;
        this.monoClock = monoClock;
        this.epochClock = epochClock;
    }

    /** Binds the data port, connects the out-links and starts forwarding. */
    static DataPlane start(RouterSettings settings) {
        return start(settings, SystemNanoClock.INSTANCE, SystemClock.INSTANCE);
    }

    static DataPlane start(RouterSettings settings, NanoClock monoClock, Clock epochClock) {
        boolean epoll = chooseEpoll(settings.transport);
        IoHandlerFactory io;
        if (settings.busyPoll) {
            // Always a non-blocking poll: the loop runs its ready sockets, then its due tasks and timers, then polls again.
            SelectStrategyFactory poll = () -> (selectNow, hasTasks) -> selectNow.get();
            io = epoll ? EpollIoHandler.newFactory(0, poll) : NioIoHandler.newFactory(SelectorProvider.provider(), poll);
        } else {
            io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        }
        int loops = epoll ? settings.eventLoops : 1;
        if (!epoll && settings.eventLoops > 1) {
            LOG.warn("router {}: {} event loops need epoll's SO_REUSEPORT; the NIO transport runs one",
                    settings.nodeId, settings.eventLoops);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, new DefaultThreadFactory("gridstat-" + settings.nodeId), io);
        DataPlane plane = new DataPlane(settings, epoll, group, monoClock, epochClock);
        try {
            plane.open(loops);
        } catch (RuntimeException e) {
            try {
                plane.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
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

    private void open(int loops) {
        // before anything starts: a port another router holds is refused, not shared (SO_REUSEPORT)
        UdpPortClaim.requireFree(resolve(settings.bind), "data port");
        if (settings.priorityBind != null) {
            UdpPortClaim.requireFree(resolve(settings.priorityBind), "priority port");
        }
        List<IoEventLoop> eventLoops = new ArrayList<>();
        Iterator<EventExecutor> it = group.iterator();
        while (it.hasNext()) {
            eventLoops.add((IoEventLoop) it.next());
        }
        dataLoop = eventLoops.get(0);
        DataPathCounters handoffCounters = new DataPathCounters();
        counters.add(handoffCounters);
        kernelLinks = KernelLinks.open(settings);
        dataPath = submitAndWait(() -> new DataPath(settings, dataLoop, monoClock, epochClock, handoffCounters, kernelLinks));

        // Out-links first, so nothing read can find a link without its socket. They only send:
        // connected to their neighbour, they read nothing (a neighbour's frames arrive at its data
        // port), and a closed port's ICMP error surfaces as a send error.
        for (int i = 0; i < dataPath.links.length; i++) {
            LinkTransmitter link = dataPath.links[i];
            Channel ch = connectOutLink(link, link.config.address);
            Channel priority = link.config.priorityAddress == null ? null : connectOutLink(link, link.config.priorityAddress);
            link.attach(ch, priority);
        }
        if (epoll && settings.udpOffload && dataPath.links.length > 0 && !EpollDatagramChannel.isSegmentedDatagramPacketSupported()) {
            LOG.warn("router {}: out-links send each datagram on its own: the kernel has no UDP segmentation offload"
                    + " (UDP_SEGMENT)", settings.nodeId);
        }
        dataLoop.submit(dataPath::start).syncUninterruptibly();
        kernelLinks.start(dataPath.engine, dataLoop, monoClock, settings.estimator.periodNanos());
        if (epoll && loops > 1) {
            handoffSignal = HandoffSignal.open(dataLoop, dataPath::drainHandoff);
            dataPath.signalHandoffsWith(handoffSignal);
        }
        if (settings.warmUpFrames > 0) {
            long start = System.nanoTime();
            dataLoop.submit(() -> DataPathWarmUp.run(settings.warmUpFrames)).syncUninterruptibly();
            LOG.info("router {} warmed its data path on {} frames in {} ms", settings.nodeId, settings.warmUpFrames,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        InetSocketAddress bindAddress = resolve(settings.bind);
        EpollIngressSocket prioritySocket = settings.priorityBind == null ? null : openPriorityPort();
        for (int i = 0; i < loops; i++) {
            DataPathCounters c = new DataPathCounters();
            counters.add(c);
            FrameIntake intake = i == 0 ? new FrameIntake(dataPath, c)
                    : new FrameIntake(dataPath, c, dataPath.newHandoffRing());
            // With several loops, every socket binds the port the first one got.
            InetSocketAddress at = i == 0 ? bindAddress : localAddress;
            if (epoll) {
                EpollIngressSocket socket = EpollIngressSocket.open(eventLoops.get(i), at, settings.socketBufferBytes, intake,
                        settings.udpOffload);
                if (i == 0 && prioritySocket != null) {
                    socket.readFirst(prioritySocket);
                }
                ingressSockets.add(socket);
                localAddress = socket.localAddress();
            } else {
                localAddress = bindNio(eventLoops.get(i), at, intake);
            }
        }
        if (epoll && settings.bind.port() != 0) { // SO_REUSEPORT: another router may have bound it since the claim
            UdpPortClaim.requireSole(new InetSocketAddress(bindAddress.getAddress(), localAddress.getPort()), loops, "data port");
        }
        if (prioritySocket != null && settings.priorityBind.port() != 0) {
            UdpPortClaim.requireSole(resolve(settings.priorityBind), 1, "priority port");
        }
        LOG.info("router {} forwarding on {}{} ({}, {} event loop(s){}{}, {} out-link(s), {} flow(s){})", settings.nodeId,
                localAddress(), priorityAddress == null ? "" : ", HRT and LRT first on " + priorityAddress,
                epoll ? "epoll" : "nio", loops, settings.busyPoll ? " busy-polling" : "", udpOffloadInUse(),
                dataPath.links.length, settings.flows.size(), dataPath.relay() == null ? ""
                        : settings.congestionNotices ? ", congestion control on" : ", congestion control on, local only");
        if (settings.congestionNotices && dataPath.relay() != null) {
            try {
                notices = settings.congestion.openNotices(new DataPlaneNoticeHost(settings, dataPath, upstreamHops,
                        localAddress(), monoClock));
            } catch (RuntimeException e) { // as if it had said why and given none: the flows are held, no hop is told
                LOG.error("router {}: congestion notices not opened: {}", settings.nodeId, e.toString());
            }
        }
    }

    private Channel connectOutLink(LinkTransmitter link, Endpoint to) {
        Channel ch = new Bootstrap().group(dataLoop)
                .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
                .option(ChannelOption.AUTO_CLOSE, false)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.SO_SNDBUF, settings.socketBufferBytes)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, EGRESS_WATER_MARK)
                .handler(link)
                .connect(resolve(to)).syncUninterruptibly().channel();
        egress.add(ch);
        return ch;
    }

    /**
     * Binds the priority port on the data-path loop, with its own intake. Under epoll it is read
     * before the data port on each wake-up and before the hand-off rings are drained; under NIO it
     * is a second channel on the loop, which keeps its frames out of the data port's queue only.
     */
    private EpollIngressSocket openPriorityPort() {
        DataPathCounters c = new DataPathCounters();
        counters.add(c);
        FrameIntake intake = new FrameIntake(dataPath, c);
        InetSocketAddress at = resolve(settings.priorityBind);
        if (epoll) {
            // No receive coalescing here: a NIC may hold coalesced packets until its poll ends (or
            // gro_flush_timeout), and HRT and LRT come here for their latency, not for throughput.
            EpollIngressSocket socket = EpollIngressSocket.open(dataLoop, at, settings.socketBufferBytes, intake, false);
            ingressSockets.add(socket);
            priorityAddress = socket.localAddress();
            dataLoop.submit(() -> dataPath.readFirst(socket::readNow)).syncUninterruptibly();
            return socket;
        }
        priorityAddress = bindNio(dataLoop, at, intake);
        return null;
    }

    /** A data port read through Netty's NIO datagram channel; returns the address it bound. */
    private InetSocketAddress bindNio(IoEventLoop loop, InetSocketAddress at, FrameIntake intake) {
        Channel ch = new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                .option(ChannelOption.SO_RCVBUF, settings.socketBufferBytes)
                .option(ChannelOption.AUTO_CLOSE, false)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(FrameIntake.DATAGRAM_BUFFER))
                .handler(new IngressHandler(intake))
                .bind(at).syncUninterruptibly().channel();
        ingressChannels.add(ch);
        return (InetSocketAddress) ch.localAddress();
    }

    /** Runs {@code task} on the data-path loop, after what is queued there. */
    void executeOnDataPath(Runnable task) {
        dataLoop.execute(task);
    }

    /** Runs {@code alarm} off the data path, handed over at once, when congestion control finds a need unmet. */
    void onUnmet(Runnable alarm) {
        dataPath.onUnmet(alarm);
    }

    /** The previous hops of the broker's flows, as this data plane numbers them. */
    UpstreamHops upstreamHops() {
        return upstreamHops;
    }

    /** The congestion-notice channels, or {@code null}: off, or they could not open. */
    NoticeChannels notices() {
        return notices;
    }

    /** The priority data port, or {@code null} if there is none. */
    InetSocketAddress priorityAddress() {
        return priorityAddress;
    }

    private <T> T submitAndWait(java.util.concurrent.Callable<T> task) {
        return dataLoop.submit(task).syncUninterruptibly().getNow();
    }

    private static InetSocketAddress resolve(Endpoint e) {
        InetSocketAddress a = new InetSocketAddress(e.host(), e.port());
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("host of endpoint " + e + " does not resolve");
        }
        return a;
    }

    InetSocketAddress localAddress() {
        return localAddress;
    }

    RouterCounters counters() {
        return DataPathCounters.snapshot(counters, dataPath);
    }

    /**
     * The counters for a flow report: as {@link #counters()}, ending the queues' latency period,
     * so each flow's period p99 is over the events sent since the previous report. Only the flow
     * reports call it.
     */
    RouterCounters reportCounters() {
        return DataPathCounters.snapshot(counters, dataPath, true);
    }

    /** How many reassignments moved a flow's assured rate since the data path started (0: none, or no congestion control). */
    long reassignments(long flowId) {
        return dataPath.reassignments(flowId);
    }

    /** Queues flow changes for the data path; they apply on its loop, in order. */
    void submit(List<FlowCommand> commands) {
        dataPath.submit(commands, null);
    }

    /** As {@link #submit(List)}, telling {@code listener} (on the data-path loop) what became of each. */
    void submit(List<FlowCommand> commands, org.gridstat.core.forward.ForwardingEngine.CommandListener listener) {
        dataPath.submit(commands, listener);
    }

    List<String> outLinks() {
        return settings.links.stream().map(l -> l.name).toList();
    }

    /** Frames the other ingress loops handed to the data path so far. */
    long handedOffFrames() {
        return dataPath.handedOffFrames();
    }

    /** Buffers of several datagrams the data ports received coalesced (UDP_GRO) so far. */
    long coalescedBuffers() {
        return counters.stream().mapToLong(DataPathCounters::coalescedBuffers).sum();
    }

    /** Segmented sends (UDP_SEGMENT) of several datagrams the out-links made so far; read on the data-path loop. */
    long segmentedSends() {
        return submitAndWait(() -> {
            long n = 0;
            for (LinkTransmitter link : dataPath.links) {
                n += link.segmentedSends();
            }
            return n;
        });
    }

    /** What of UDP offload the sockets use, for the start's log line. */
    private String udpOffloadInUse() {
        List<String> used = new ArrayList<>();
        if (java.util.Arrays.stream(dataPath.links).anyMatch(LinkTransmitter::segmenting)) {
            used.add("segmented sends");
        }
        if (ingressSockets.stream().anyMatch(EpollIngressSocket::coalescing)) {
            used.add("coalesced receives");
        }
        return used.isEmpty() ? "" : ", UDP offload: " + String.join(" and ", used);
    }

    List<org.gridstat.core.forward.FlowEntry> flows() {
        return dataPath.engine.flows();
    }

    /** Closes the sockets, gives back every queued buffer and stops the event loops. */
    @Override
    public void close() {
        try {
            if (notices != null) {
                try {
                    notices.close();
                } catch (RuntimeException e) { // the provider's: this data plane's sockets close all the same
                    LOG.error("router {}: closing its congestion notices: {}", settings.nodeId, e.toString());
                }
            }
            for (EpollIngressSocket s : ingressSockets) {
                s.close();
            }
            for (Channel ch : ingressChannels) {
                ch.close().syncUninterruptibly();
            }
            if (handoffSignal != null) {
                handoffSignal.close();
            }
            if (dataPath != null && !dataLoop.isShuttingDown()) {
                dataLoop.submit(dataPath::discard).syncUninterruptibly();
            }
            for (Channel ch : egress) {
                ch.close().syncUninterruptibly();
            }
        } finally {
            try {
                if (kernelLinks != null) { // whatever failed above, the devices are left as they were
                    kernelLinks.close();
                }
            } finally {
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }
}
