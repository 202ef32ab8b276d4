package org.gridstat.statusrouter.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.Saturating;
import org.gridstat.statusrouter.spi.CongestionControl;

/** A router's validated configuration. Every problem is reported with the name of its key. */
final class RouterSettings {
    enum Transport { AUTO, EPOLL, NIO }

    static final int MAX_EVENT_LOOPS = 64;
    /**
     * The largest {@code max.flows.per.link}. Each out-link sets aside about 200 B per allowed flow
     * when the router starts (13 MB at this bound), and each flow installed takes about 60 KB of
     * statistics (its latency histograms) besides its buffer: a link full at this bound holds about
     * 4 GB before any event is queued.
     */
    static final int MAX_FLOWS_PER_LINK = 65_536;
    /** Flow ids from here up are given to the flows that {@code routes} lines imply. */
    static final long ROUTE_FLOW_IDS = 1L << 48;
    /**
     * A route is a plain relay, so its flow holds enough to ride out a host's scheduling hiccup (a
     * couple of milliseconds of a 1 Gbit/s link in 260-byte events) instead of dropping a burst
     * that arrived while the data path was off the CPU.
     */
    static final int ROUTE_BUFFER_EVENTS = 1024;

    final String nodeId;
    final Endpoint bind;
    final int eventLoops;
    final Transport transport;
    final int socketBufferBytes;
    final List<OutLinkConfig> links;
    final List<FlowEntry> flows;
    final EstimatorSettings estimator;
    final int maxFlowsPerLink;
    /** The event loops poll instead of sleeping: see {@link #busyPolling(boolean)}. */
    final boolean busyPoll;
    /** How far received source timestamps are trusted: see {@link #trusting(SourceTimeTrust)}. */
    final SourceTimeTrust sourceTimeTrust;
    /** The priority data port, or {@code null}: see {@link #withPriorityPort(String)}. */
    final Endpoint priorityBind;
    /** Frames of warm-up before the ports open: see {@link #warmingUp(int)}. */
    final int warmUpFrames;
    /** Congestion control each out-link runs, or {@code null}: see {@link #withCongestionControl(String, CongestionControl)}. */
    final CongestionControl congestion;
    /** Whether {@link #congestion} is on. */
    final boolean congestionControl;
    /** With it, congestion notices to the previous hops and from the next: see {@link #withCongestionControl(String, CongestionControl)}. */
    final boolean congestionNotices;
    /** The setting asked for congestion control and no bundle provides it: the router forwards without. */
    final boolean congestionMissing;
    /** The links the kernel shapes: see {@link #withKernelShaping}. */
    final KernelShapingSettings kernelShaping;
    /** The kernel's UDP batching beyond recvmmsg/sendmmsg, where it has it: see {@link #withUdpOffload(boolean)}. */
    final boolean udpOffload;

    private RouterSettings(String nodeId, Endpoint bind, int eventLoops, Transport transport, int socketBufferBytes,
                           List<OutLinkConfig> links, List<FlowEntry> flows,
                           EstimatorSettings estimator, int maxFlowsPerLink, boolean busyPoll,
                           SourceTimeTrust sourceTimeTrust, Endpoint priorityBind, int warmUpFrames,
                           CongestionControl congestion, boolean congestionNotices, boolean congestionMissing,
                           KernelShapingSettings kernelShaping, boolean udpOffload) {
        this.kernelShaping = kernelShaping;
        this.udpOffload = udpOffload;
        this.nodeId = nodeId;
        this.bind = bind;
        this.eventLoops = eventLoops;
        this.transport = transport;
        this.socketBufferBytes = socketBufferBytes;
        this.links = List.copyOf(links);
        this.flows = List.copyOf(flows);
        this.estimator = estimator;
        this.maxFlowsPerLink = maxFlowsPerLink;
        this.busyPoll = busyPoll;
        this.sourceTimeTrust = sourceTimeTrust;
        this.priorityBind = priorityBind;
        this.warmUpFrames = warmUpFrames;
        this.congestion = congestion;
        this.congestionControl = congestion != null;
        this.congestionNotices = congestionNotices && congestionControl;
        this.congestionMissing = congestionMissing;
    }

    /** The settings of a router that routes by {@code routes} lines only, with default estimator and limits. */
    static RouterSettings of(String nodeId, String bind, int eventLoops, String transport, int socketBufferBytes,
                             String[] routes) {
        return of(nodeId, bind, eventLoops, transport, socketBufferBytes, new String[0], new String[0], routes,
                EstimatorSettings.DEFAULT.periodNanos(), EstimatorSettings.DEFAULT.weight(), 1024);
    }

    /**
     * @throws IllegalArgumentException listing every bad key
     */
    static RouterSettings of(String nodeId, String bind, int eventLoops, String transport, int socketBufferBytes,
                             String[] links, String[] flows, String[] routes,
                             long estimatorPeriodNanos, double estimatorWeight, int maxFlowsPerLink) {
        List<String> problems = new ArrayList<>();
        if (nodeId == null || nodeId.isBlank()) {
            problems.add("node.id is empty");
        }
        Endpoint bindEndpoint = null;
        try {
            bindEndpoint = Endpoint.parse(bind);
        } catch (IllegalArgumentException e) {
            problems.add("data.bind: " + e.getMessage());
        }
        if (eventLoops < 1 || eventLoops > MAX_EVENT_LOOPS) {
            problems.add("event.loops must be between 1 and " + MAX_EVENT_LOOPS + ", got " + eventLoops);
        }
        Transport t = null;
        try {
            t = Transport.valueOf(transport.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            problems.add("transport must be auto, epoll or nio, got '" + transport + "'");
        }
        if (socketBufferBytes < 65536) {
            problems.add("socket.buffer.bytes must be at least 65536, got " + socketBufferBytes);
        }
        if (maxFlowsPerLink < 1 || maxFlowsPerLink > MAX_FLOWS_PER_LINK) {
            problems.add("max.flows.per.link must be 1.." + MAX_FLOWS_PER_LINK + ", got " + maxFlowsPerLink);
        }
        EstimatorSettings estimator = null;
        try {
            estimator = new EstimatorSettings(estimatorPeriodNanos, estimatorWeight);
        } catch (IllegalArgumentException e) {
            problems.add("estimator: " + e.getMessage());
        }

        Map<String, OutLinkConfig> byName = new LinkedHashMap<>();
        for (String line : links == null ? new String[0] : links) {
            try {
                OutLinkConfig l = OutLinkConfig.parse(line);
                if (byName.putIfAbsent(l.name, l) != null) {
                    problems.add("links: name '" + l.name + "' used twice");
                }
            } catch (IllegalArgumentException e) {
                problems.add("links: " + e.getMessage());
            }
        }
        List<FlowEntry> flowEntries = new ArrayList<>();
        List<String[]> routeTargets = new ArrayList<>();
        int n = 0;
        for (String line : routes == null ? new String[0] : routes) {
            n++;
            int arrow = line.indexOf("->");
            try {
                if (arrow < 0) {
                    throw new IllegalArgumentException("expected '<variable id> -> host:port, ...'");
                }
                VariableId variable = VariableId.parse(line.substring(0, arrow));
                for (String ep : line.substring(arrow + 2).split(",")) {
                    Endpoint e = Endpoint.parse(ep);
                    byName.putIfAbsent(e.toString(), OutLinkConfig.forDestination(e));
                    routeTargets.add(new String[] {Long.toString(variable.value()), e.toString()});
                }
            } catch (IllegalArgumentException e) {
                problems.add("routes: route " + n + " '" + line + "': " + e.getMessage());
            }
        }
        Map<String, Integer> index = new HashMap<>();
        List<OutLinkConfig> linkList = new ArrayList<>(byName.values());
        for (int i = 0; i < linkList.size(); i++) {
            index.put(linkList.get(i).name, i);
        }
        long routeFlowId = ROUTE_FLOW_IDS;
        java.util.Set<String> seenRoutes = new java.util.HashSet<>();
        for (String[] rt : routeTargets) {
            if (!seenRoutes.add(rt[0] + "->" + rt[1])) {
                continue; // a destination named twice in one route gets one copy
            }
            OutLinkConfig link = byName.get(rt[1]);
            flowEntries.add(new FlowEntry(1, Long.parseLong(rt[0]), index.get(rt[1]),
                    FlowSpec.of(routeFlowId++, ServiceClass.BE, 0, 0, link.spec.capacity(), ROUTE_BUFFER_EVENTS, ""),
                    new long[0], 0, 0));
        }
        Map<Long, String> flowIds = new HashMap<>();
        for (String line : flows == null ? new String[0] : flows) {
            try {
                FlowEntry f = FlowConfig.parse(line, index, byName);
                if (flowIds.putIfAbsent(f.flowId(), line) != null) {
                    problems.add("flows: flow id " + f.flowId() + " used twice");
                }
                flowEntries.add(f);
            } catch (IllegalArgumentException e) {
                problems.add("flows: " + e.getMessage());
            }
        }
        Map<String, Integer> flowsPerLink = new HashMap<>();
        for (FlowEntry f : flowEntries) {
            String link = linkList.get(f.outLink()).name;
            if (flowsPerLink.merge(link, 1, Integer::sum) == maxFlowsPerLink + 1) {
                problems.add("link '" + link + "' has more than max.flows.per.link = " + maxFlowsPerLink + " flows");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid status router configuration: " + String.join("; ", problems));
        }
        return new RouterSettings(nodeId, bindEndpoint, eventLoops, t, socketBufferBytes, linkList,
                flowEntries, estimator, maxFlowsPerLink, false, SourceTimeTrust.DEFAULT, null, 0, null, false, false, KernelShapingSettings.NONE, true);
    }

    /**
     * These settings with the event loops polling for datagrams without ever sleeping, when
     * {@code on}: a datagram is read as soon as it arrives, without the wake-up of an idle thread
     * (on a virtual machine, an idle virtual CPU's wake-up alone can take hundreds of microseconds).
     * Each loop keeps its CPU fully busy, so this is for routers with CPUs reserved for them.
     */
    RouterSettings busyPolling(boolean on) {
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, on, sourceTimeTrust, priorityBind, warmUpFrames, congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    /**
     * These settings with received source timestamps trusted within {@code trust}: a frame
     * stamped further ahead of the router's epoch clock, or older, is dropped and counted.
     */
    RouterSettings trusting(SourceTimeTrust trust) {
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, trust, priorityBind, warmUpFrames, congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    /**
     * The source-time trust window of the keys {@code source.time.ahead.ms} and
     * {@code source.time.max.age.ms}, both positive; milliseconds beyond {@code long} nanoseconds
     * mean trust everything that way.
     *
     * @throws IllegalArgumentException naming the key that is zero or negative
     */
    static SourceTimeTrust sourceTimeTrust(long aheadMs, long maxAgeMs) {
        List<String> problems = new ArrayList<>();
        if (aheadMs <= 0) {
            problems.add("source.time.ahead.ms must be positive (a publisher's clock a little ahead of this host's"
                    + " would have every frame refused), got " + aheadMs);
        }
        if (maxAgeMs <= 0) {
            problems.add("source.time.max.age.ms must be positive, got " + maxAgeMs);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid status router configuration: " + String.join("; ", problems));
        }
        return new SourceTimeTrust(Saturating.millisToNanos(aheadMs), Saturating.millisToNanos(maxAgeMs));
    }

    /**
     * These settings with a second data port, for HRT and LRT frames: publishers and neighbours
     * send their HRT and LRT frames there, so a best-effort flood queued at the data port cannot
     * hold them back in the kernel, and under epoll each duty cycle reads it before the data port.
     *
     * @param bind {@code host:port}, or {@code null} or blank for none
     * @throws IllegalArgumentException if it is not a {@code host:port}, or is the data port under any
     *                                  name ({@link #overlap})
     */
    RouterSettings withPriorityPort(String bind) {
        Endpoint priority = null;
        if (bind != null && !bind.isBlank()) {
            try {
                priority = Endpoint.parse(bind);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid status router configuration: priority.bind: " + e.getMessage(), e);
            }
            String overlap = overlap(priority, this.bind);
            if (overlap != null) {
                throw new IllegalArgumentException("invalid status router configuration: priority.bind " + priority
                        + " overlaps data.bind " + this.bind + ": " + overlap + "; give the priority port a port of its own");
            }
        }
        return new RouterSettings(nodeId, this.bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priority, warmUpFrames, congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    /**
     * Why binding {@code a} and {@code b} would take one socket address, or {@code null} if they
     * would not: the same port (not 0, which the system picks anew for each) and either address the
     * wildcard or both the same once resolved ({@code localhost} and {@code 127.0.0.1} are one). A
     * name that does not resolve is compared as text; binding it fails later with its own message.
     */
    static String overlap(Endpoint a, Endpoint b) {
        if (a.port() != b.port() || a.port() == 0) {
            return null;
        }
        InetAddress[] as = addresses(a.host());
        InetAddress[] bs = addresses(b.host());
        for (InetAddress[] side : new InetAddress[][] {as, bs}) {
            for (InetAddress x : side) {
                if (x.isAnyLocalAddress()) {
                    return "the same port, and " + (side == as ? a.host() : b.host()) + " is every address";
                }
            }
        }
        if (as.length == 0 || bs.length == 0) {
            return a.host().equalsIgnoreCase(b.host()) ? "the same port on the same address" : null;
        }
        for (InetAddress x : as) {
            for (InetAddress y : bs) {
                if (x.equals(y)) {
                    return "the same port on the same address once resolved";
                }
            }
        }
        return null;
    }

    private static InetAddress[] addresses(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return new InetAddress[0];
        }
    }

    /**
     * These settings with {@code more} out-links after the configured ones (so the configured flows
     * keep their links), none of the same name, and no warm-up: the data path ran already.
     */
    RouterSettings withBrokerLinks(List<OutLinkConfig> more) {
        List<OutLinkConfig> all = new ArrayList<>(links.size() + more.size());
        all.addAll(links);
        all.addAll(more);
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, all, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priorityBind, 0, congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    /** These settings bound to the ports a running data plane has, which a restart takes again. */
    RouterSettings boundAt(InetSocketAddress data, InetSocketAddress priority) {
        return new RouterSettings(nodeId, endpoint(data), eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priority == null ? null : endpoint(priority), warmUpFrames,
                congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getHostAddress(), a.getPort());
    }

    /**
     * These settings with the data path run on {@code frames} synthetic frames before the ports
     * open ({@link org.gridstat.core.egress.DataPathWarmUp}), so the first real frames find it
     * compiled; 0: none (the default here; the router component warms up by default).
     *
     * @throws IllegalArgumentException if negative or above 10,000,000
     */
    RouterSettings warmingUp(int frames) {
        if (frames < 0 || frames > 10_000_000) {
            throw new IllegalArgumentException("invalid status router configuration: warm.up.frames must be 0..10000000, got "
                    + frames);
        }
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priorityBind, frames, congestion, congestionNotices, congestionMissing, kernelShaping, udpOffload);
    }

    /**
     * These settings with cooperative congestion control on each out-link, as {@code provider}
     * (the congestion-control bundle's service) runs it. {@code on} (or {@code true}): after each
     * estimator period, and after its flows change, a link lends the assured bandwidth of
     * best-effort and then LRT flows, never below their minimum, to HRT flows whose demand exceeds
     * their reservation, and gives it back when the demand falls (with the bundle's policy,
     * {@link org.gridstat.core.congestion.BandwidthReassignment}); a flow that lent is held to the
     * samples its new rate carries, and congestion notices tell the hops its variable comes from,
     * up to the publisher, to send no more ({@link org.gridstat.core.congestion.NoticeRelay}); the
     * router takes its next hops' notices on TCP at its data port's number. {@code local}: the
     * reassignment and the holds, no notices. {@code off} (or {@code false}, or {@code null}): the
     * links serve the reservations as installed. Asked for with no {@code provider}, it is off and
     * {@link #congestionMissing} says so.
     *
     * @throws IllegalArgumentException for any other value, naming the key
     */
    RouterSettings withCongestionControl(String setting, CongestionControl provider) {
        boolean on;
        boolean notices;
        switch (setting == null ? "off" : setting.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true" -> {
                on = true;
                notices = true;
            }
            case "local" -> {
                on = true;
                notices = false;
            }
            case "off", "false" -> {
                on = false;
                notices = false;
            }
            default -> throw new IllegalArgumentException("invalid status router configuration: congestion.control must be"
                    + " on, local or off, got '" + setting + "'");
        }
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priorityBind, warmUpFrames, on ? provider : null, notices,
                on && provider == null, kernelShaping, udpOffload);
    }

    /**
     * These settings with the out-links that {@code lines} name shaped by the kernel through
     * {@code provider} (the kernel-shaping bundle's service; {@code null}: not installed, and each such
     * link is said once in the log and shaped by the router). A line may name a link the broker
     * gives later.
     *
     * @throws IllegalArgumentException naming each bad line ({@link KernelShapingSettings#parse})
     */
    RouterSettings withKernelShaping(String[] lines, org.gridstat.statusrouter.spi.KernelShaping provider) {
        KernelShapingSettings k;
        try {
            k = KernelShapingSettings.parse(lines, provider);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid status router configuration: " + e.getMessage(), e);
        }
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priorityBind, warmUpFrames, congestion, congestionNotices,
                congestionMissing, k, udpOffload);
    }

    /**
     * These settings with UDP offload {@code on} (the default) or off: under epoll each out-link
     * sends a flush's consecutive datagrams of one length for one socket as one segmented send
     * (UDP_SEGMENT: the kernel cuts them apart again), and the data ports take what the kernel
     * coalesced (UDP_GRO) as one buffer, split here into its datagrams. Off: one send and one
     * receive slot per datagram, as before; for A/B measurements.
     */
    RouterSettings withUdpOffload(boolean on) {
        return new RouterSettings(nodeId, bind, eventLoops, transport, socketBufferBytes, links, flows, estimator,
                maxFlowsPerLink, busyPoll, sourceTimeTrust, priorityBind, warmUpFrames, congestion, congestionNotices,
                congestionMissing, kernelShaping, on);
    }
}
