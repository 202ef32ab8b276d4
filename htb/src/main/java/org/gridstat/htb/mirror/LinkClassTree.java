package org.gridstat.htb.mirror;

import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.htb.ClassRates;
import org.gridstat.htb.ClassStatistics;
import org.gridstat.htb.Htb;
import org.gridstat.htb.HtbException;
import org.gridstat.htb.U32Match;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelFlowStatistics;
import org.gridstat.statusrouter.spi.KernelLink;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One out-link's class tree on its device, as the router has it: the HTB root {@code 1:}, the link
 * {@code 1:1} at the link's capacity, under it a leaf {@code 1:2} for whatever no filter claims
 * (control traffic, other hosts' packets) and the classes HRT {@code 1:10}, LRT {@code 1:20} and
 * best effort {@code 1:30} at their shares with priorities 0, 1 and 2, and under each class its
 * flows, {@code 1:101} onwards: a leaf at the flow's assured rate, borrowing up to its ceiling,
 * with a bounded FIFO, and a u32 filter that steers the flow's packets to it by the variable id in
 * the status event each datagram carries (one event a datagram on a kernel-shaped link).
 *
 * <p>Rates are the broker's, bytes per second on the wire (the frame and its IP and UDP headers).
 * The kernel also counts each packet's Ethernet header, so a flow's leaf is given its rate scaled
 * by its packets' size with that header over their size without: a flow gets its reservation at
 * the IP layer. The link and its classes are scaled alike, by the flows' scales weighted by their
 * rates, so the link carries its capacity at the IP layer as the router's own scheduler does.
 * Counters read back are scaled the other way.
 */
public final class LinkClassTree implements KernelLink {
    /** The link's class, under the root. */
    public static final int LINK = 0x1;
    /** The leaf of unclassified packets, the HTB default class. */
    public static final int UNCLASSIFIED = 0x2;
    public static final int HRT = 0x10;
    public static final int LRT = 0x20;
    public static final int BEST_EFFORT = 0x30;
    /** Flow leaves are {@code FIRST_FLOW + node}, node being the flow's u32 filter node, 1..{@value #MAX_FLOWS}. */
    public static final int FIRST_FLOW = 0x100;
    /** u32 nodes in one hash table: the most flows a kernel-shaped link carries. */
    public static final int MAX_FLOWS = 0xfff;
    /** What the kernel counts of each packet beyond the IP layer (an Ethernet header). */
    static final int LINK_HEADER = 14;
    /** The smallest packet on the wire, for a flow whose size is not known yet: the scale is then generous. */
    static final double SMALLEST_PACKET = WireFormat.HEADER_LENGTH + WireFormat.DATAGRAM_OVERHEAD;
    /** Packets queued at most in the leaf of unclassified packets. */
    static final int UNCLASSIFIED_QUEUE = 256;
    /** A rate the kernel takes for a class or flow reserved nothing: it borrows the rest. */
    static final long LEAST_RATE = 8;
    /** What a held flow keeps above what its hold lets through: samples a little off the hold's grid. */
    static final double HOLD_HEADROOM = 0.1;
    /** The fewest packets a leaf with deadlines holds: two events published together both wait. */
    static final int MIN_LEAF_QUEUE = 2;
    private static final Logger LOG = LoggerFactory.getLogger(LinkClassTree.class);

    /** A flow as it is in the kernel. */
    private record Installed(KernelFlow flow, int node, ClassRates rates, int queue) {
        int minor() {
            return FIRST_FLOW + node;
        }
    }

    private final Htb htb;
    private final String device;
    private final Inet4Address neighbour;
    private final long capacity;
    private final int flowQueue;
    private final Map<Long, Installed> installed = new HashMap<>();
    /** Each class node's rates as last given to the kernel. */
    private final Map<ServiceClass, ClassRates> classApplied = new java.util.EnumMap<>(ServiceClass.class);
    private final LinkSpec spec;
    /** The scale the link and class levels have now: 1 until flows say what their packets are. */
    private double levelScale = 1;
    private final BitSet usedNodes = new BitSet(MAX_FLOWS + 1);
    /** The device's interface index when the tree was built: another is a device made anew, without it. */
    private int ifindex;
    private boolean closed;

    private LinkClassTree(Htb htb, String device, Inet4Address neighbour, LinkSpec spec, int flowQueue) {
        this.spec = spec;
        this.capacity = spec.capacity();
        this.htb = htb;
        this.device = device;
        this.neighbour = neighbour;
        this.flowQueue = flowQueue;
    }

    /**
     * Builds the link and class levels of {@code plan}'s link on its device.
     *
     * @throws HtbException             the kernel's refusal, after removing what was built (a root
     *                                  that was there already, another's, is left alone)
     * @throws IllegalArgumentException the neighbour is not an IPv4 address, or the device already
     *                                  has an HTB root (another's shaping, or one left by a router
     *                                  that did not stop: {@code gridstat htb clear} removes it)
     */
    public static LinkClassTree build(Htb htb, KernelLinkPlan plan) throws HtbException {
        if (!(plan.neighbour().getAddress() instanceof Inet4Address v4)) {
            throw new IllegalArgumentException("link " + plan.link() + ": kernel shaping steers IPv4 packets; neighbour "
                    + plan.neighbour() + " is not an IPv4 address");
        }
        if (plan.priority() != null && !plan.neighbour().getAddress().equals(plan.priority().getAddress())) {
            throw new IllegalArgumentException("link " + plan.link() + ": the neighbour's priority port is on another address ("
                    + plan.priority() + ") than its data port (" + plan.neighbour() + ")");
        }
        String root = htb.rootQdiscKind(plan.device());
        if ("htb".equals(root)) {
            throw new IllegalArgumentException("device " + plan.device() + " already has an HTB root qdisc (another's shaping,"
                    + " or one left behind): 'gridstat htb clear --dev " + plan.device() + "' removes it");
        }
        LinkClassTree tree = new LinkClassTree(htb, plan.device(), v4, plan.spec(), plan.flowQueue());
        tree.buildLinkAndClasses();
        return tree;
    }

    /**
     * The root and the link and class levels. If the root cannot be made, nothing is removed: the
     * root there is another's (one made since the check above, by a router of another process
     * naming the same device). If a level after it is refused, the root made here goes again.
     */
    private void buildLinkAndClasses() throws HtbException {
        ifindex = htb.ifindex(device);
        htb.createRoot(device, UNCLASSIFIED);
        try {
            htb.addClass(device, 0, LINK, linkRates());
            htb.addClass(device, LINK, UNCLASSIFIED, unclassifiedRates());
            htb.setLeafQueue(device, UNCLASSIFIED, UNCLASSIFIED_QUEUE);
            for (ServiceClass c : DATA_CLASSES) {
                ClassRates r = classRates(c);
                htb.addClass(device, LINK, classMinor(c), r);
                classApplied.put(c, r);
            }
        } catch (HtbException | RuntimeException e) {
            try {
                htb.clear(device);
            } catch (HtbException | RuntimeException removing) {
                e.addSuppressed(removing);
            }
            throw e;
        }
    }

    private static final ServiceClass[] DATA_CLASSES = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};

    private long scaled(long rate) {
        return Math.max(LEAST_RATE, (long) Math.ceil(rate * levelScale));
    }

    private ClassRates linkRates() {
        return rates(scaled(capacity), scaled(capacity), 0);
    }

    private ClassRates unclassifiedRates() {
        return rates(Math.max(LEAST_RATE, capacity / 100), scaled(capacity), 0);
    }

    /**
     * A class's node: guaranteed what its flows' leaves are (at least the least rate), borrowing up
     * to the class's ceil. Not the class's share: HTB lets a class under its own rate lend to its
     * leaves whatever the link's state, so an unused share would let them carry the link past its
     * capacity; held to its leaves' sum, what a class leaves unused goes back to the link, where
     * the classes borrow it in priority order, HRT first, and the link's rate bounds all.
     */
    private ClassRates classRates(ServiceClass c) {
        Shaping share = spec.classShare(c);
        long leaves = 0;
        for (Installed i : installed.values()) {
            if (i.flow().serviceClass() == c) {
                leaves += i.rates().rateBytesPerSecond();
            }
        }
        long ceil = scaled(share.ceil());
        return rates(Math.min(ceil, Math.max(LEAST_RATE, leaves)), ceil, priority(c));
    }

    /** Brings each class's node to its leaves' sum, where it moved. */
    private void followLeaves() throws HtbException {
        for (ServiceClass c : DATA_CLASSES) {
            ClassRates r = classRates(c);
            if (!r.equals(classApplied.get(c))) {
                htb.changeClass(device, LINK, classMinor(c), r);
                classApplied.put(c, r);
            }
        }
    }

    /**
     * Rescales the link and class levels to the flows' packets when their weighted scale moved by
     * more than a 256th: the link then carries its capacity at the IP layer.
     */
    private void rescaleLevels(List<KernelFlow> flows) throws HtbException {
        double weight = 0;
        double sum = 0;
        for (KernelFlow f : flows) {
            if (f.meanWireBytes() > 0 && f.assuredRate() > 0) {
                weight += f.assuredRate();
                sum += f.assuredRate() * scaleOf(f.meanWireBytes());
            }
        }
        if (weight == 0) {
            return;
        }
        double scale = sum / weight;
        if (Math.abs(scale - levelScale) * 256 < levelScale) {
            return;
        }
        levelScale = scale;
        htb.changeClass(device, 0, LINK, linkRates());
        htb.changeClass(device, LINK, UNCLASSIFIED, unclassifiedRates());
        for (ServiceClass c : DATA_CLASSES) { // their ceils; their rates follow the leaves after
            ClassRates r = classRates(c);
            htb.changeClass(device, LINK, classMinor(c), r);
            classApplied.put(c, r);
        }
    }

    /** What the kernel counts of a packet of {@code wireBytes} at the IP layer, over that. */
    static double scaleOf(double wireBytes) {
        double packet = wireBytes > 0 ? wireBytes : SMALLEST_PACKET;
        return (packet + LINK_HEADER) / packet;
    }

    /** The minor of a service class's node. */
    public static int classMinor(ServiceClass c) {
        return switch (c) {
            case HRT -> HRT;
            case LRT -> LRT;
            default -> BEST_EFFORT;
        };
    }

    /** HTB priority of a class and its flows: HRT first, as the router's scheduler serves them. */
    static int priority(ServiceClass c) {
        return switch (c) {
            case HRT -> 0;
            case LRT -> 1;
            default -> 2;
        };
    }

    private static ClassRates rates(long rate, long ceil, int prio) {
        return new ClassRates(rate, Math.max(rate, ceil), burst(rate), burst(Math.max(rate, ceil)), prio, 0);
    }

    /** The router's own buckets' burst: 10 ms of the rate and a large frame. */
    private static int burst(long rate) {
        return (int) Shaping.defaultBurst(rate); // at most Shaping.MAX_BURST, within an int
    }

    /** A flow's leaf at its assured rate; see {@link #ratesOf(KernelFlow, long)}. */
    ClassRates ratesOf(KernelFlow f) {
        return ratesOf(f, f.assuredRate());
    }

    /** A flow's leaf: {@code assured} and its ceiling scaled to what the kernel counts, the ceiling within the link's. */
    ClassRates ratesOf(KernelFlow f, long assured) {
        double scale = scaleOf(f.meanWireBytes());
        long most = scaled(spec.classShare(f.serviceClass()).ceil()); // the kernel refuses a leaf above its class's ceil
        long rate = Math.min(most, Math.max(LEAST_RATE, (long) Math.ceil(assured * scale)));
        long ceil = Math.max(rate, Math.min((long) Math.ceil(f.ceilingRate() * scale), most));
        return rates(rate, ceil, priority(f.serviceClass()));
    }

    /**
     * The rate each flow's leaf is guaranteed. Each flow's assured rate in force, but where
     * congestion control could not cover an HRT flow's demand, that shortfall is given to it from
     * what the best-effort leaves can spare first, then the LRT leaves, in proportion: the router's
     * scheduler lets an HRT flow borrow what others leave unused directly, HTB only through the
     * class tree. A leaf keeps its minimum rate ({@link #kept}), which the router's scheduler keeps
     * too: a flow borrowing it would take it when it is used.
     */
    static Map<Long, Long> guaranteed(List<KernelFlow> flows) {
        Map<Long, Long> rates = new HashMap<>();
        long owed = 0;
        for (KernelFlow f : flows) {
            rates.put(f.flowId(), f.assuredRate());
            if (f.serviceClass() == ServiceClass.HRT && f.shortfall() > 0) {
                owed += Math.min(f.shortfall(), Math.max(0, f.ceilingRate() - f.assuredRate()));
            }
        }
        if (owed == 0) {
            return rates;
        }
        long found = 0;
        for (ServiceClass giver : new ServiceClass[] {ServiceClass.BE, ServiceClass.LRT}) {
            long spare = 0;
            for (KernelFlow f : flows) {
                if (f.serviceClass() == giver) {
                    spare += f.assuredRate() - kept(f);
                }
            }
            if (spare == 0 || found >= owed) {
                continue;
            }
            double part = Math.min(1, (double) (owed - found) / spare);
            for (KernelFlow f : flows) {
                if (f.serviceClass() == giver) {
                    long give = (long) Math.floor((f.assuredRate() - kept(f)) * part);
                    rates.put(f.flowId(), f.assuredRate() - give);
                    found += give;
                }
            }
        }
        double share = Math.min(1, (double) found / owed); // what was found, in proportion to each one's need
        for (KernelFlow f : flows) {
            if (f.serviceClass() == ServiceClass.HRT && f.shortfall() > 0) {
                long need = Math.min(f.shortfall(), Math.max(0, f.ceilingRate() - f.assuredRate()));
                rates.put(f.flowId(), f.assuredRate() + (long) Math.floor(need * share));
            }
        }
        return rates;
    }

    /**
     * The packets a flow's leaf may hold: what leaves at its guaranteed rate within its events' least
     * slack (the kernel does not drop what expires, as the router's scheduler does: a longer queue
     * would send every later packet late), at least {@value #MIN_LEAF_QUEUE}, at most the link's
     * {@code configured} queue; that queue for a flow without deadlines or before its size is known.
     */
    static int queueOf(KernelFlow f, long guaranteedRate, int configured) {
        if (f.slackMillis() == KernelFlow.NO_DEADLINE || f.meanWireBytes() <= 0) {
            return configured;
        }
        double packets = f.slackMillis() / 1e3 * guaranteedRate / f.meanWireBytes();
        return (int) Math.max(Math.min(MIN_LEAF_QUEUE, configured), Math.min(configured, Math.floor(packets)));
    }

    /**
     * What a flow keeps when it lends to a short HRT flow: its minimum rate, or, if congestion
     * control holds it, what its hold lets through and a tenth, if less (the rest would lie idle);
     * never less than the least rate, never more than its assured rate.
     */
    static long kept(KernelFlow f) {
        long needs = f.heldRate() > 0 ? Math.min(f.minimumRate(), (long) Math.ceil(f.heldRate() * (1 + HOLD_HEADROOM)))
                : f.minimumRate();
        return Math.min(f.assuredRate(), Math.max(LEAST_RATE, needs));
    }

    /** The filter of a flow's packets: status events of its variable sent to the neighbour. */
    U32Match matchOf(long variableId) {
        return U32Match.udp().destination(neighbour)
                .payloadWord(0, 0x4753_0000 | WireFormat.VERSION << 8 | WireFormat.FRAME_TYPE_STATUS_EVENT, 0xffff_ffff)
                .payloadWord(WireFormat.VARIABLE_ID_OFFSET, (int) (variableId >>> 32), 0xffff_ffff)
                .payloadWord(WireFormat.VARIABLE_ID_OFFSET + 4, (int) variableId, 0xffff_ffff)
                .build();
    }

    @Override
    public synchronized void apply(List<KernelFlow> flows) throws HtbException {
        if (closed) {
            throw new IllegalStateException("the class tree on " + device + " was removed");
        }
        if (lost()) {
            installed.clear();
            usedNodes.clear();
            levelScale = 1;
            buildLinkAndClasses();
            LOG.warn("the class tree on {} was gone (the device made anew, or its root qdisc removed): built again with"
                    + " {} flow(s)", device, flows.size());
        }
        Map<Long, KernelFlow> wanted = new HashMap<>();
        for (KernelFlow f : flows) {
            wanted.put(f.flowId(), f);
        }
        rescaleLevels(flows);
        Map<Long, Long> guaranteed = guaranteed(flows);
        // Gone, or moved to another variable or class: out first, so their nodes can be taken again.
        for (Installed i : new ArrayList<>(installed.values())) {
            KernelFlow w = wanted.get(i.flow().flowId());
            if (w == null || w.variableId() != i.flow().variableId() || w.serviceClass() != i.flow().serviceClass()) {
                remove(i);
            }
        }
        List<Long> unplaced = new ArrayList<>();
        for (KernelFlow f : flows) {
            Installed i = installed.get(f.flowId());
            long rate = guaranteed.get(f.flowId());
            ClassRates rates = ratesOf(f, rate);
            int queue = queueOf(f, rate, flowQueue);
            if (i == null && usedNodes.nextClearBit(1) > MAX_FLOWS) {
                unplaced.add(f.flowId()); // the flows after it still get their changes
            } else if (i == null) {
                add(f, rates, queue);
            } else {
                if (!rates.equals(i.rates())) {
                    htb.changeClass(device, classMinor(f.serviceClass()), i.minor(), rates);
                }
                if (queue != i.queue()) {
                    htb.setLeafQueue(device, i.minor(), queue);
                }
                if (!f.equals(i.flow()) || !rates.equals(i.rates()) || queue != i.queue()) {
                    installed.put(f.flowId(), new Installed(f, i.node(), rates, queue));
                }
            }
        }
        followLeaves();
        if (!unplaced.isEmpty()) {
            throw new IllegalStateException("link on " + device + " carries its most flows the kernel can steer ("
                    + MAX_FLOWS + "); " + unplaced.size() + " flow(s) not shaped by the kernel: "
                    + unplaced.subList(0, Math.min(10, unplaced.size())) + (unplaced.size() > 10 ? " ..." : ""));
        }
    }

    /**
     * Whether the kernel no longer has this tree: the device was removed and made again (its
     * qdiscs went with the old one), or its HTB root was deleted. A device that is gone is the
     * kernel's refusal (ENODEV).
     */
    private boolean lost() throws HtbException {
        return htb.ifindex(device) != ifindex || !"htb".equals(htb.rootQdiscKind(device));
    }

    private void add(KernelFlow f, ClassRates rates, int queue) throws HtbException {
        int node = usedNodes.nextClearBit(1);
        if (node > MAX_FLOWS) {
            throw new IllegalStateException("link on " + device + " carries its most flows the kernel can steer ("
                    + MAX_FLOWS + "); flow " + f.flowId() + " is not shaped by the kernel");
        }
        int minor = FIRST_FLOW + node;
        htb.addClass(device, classMinor(f.serviceClass()), minor, rates);
        try {
            htb.setLeafQueue(device, minor, queue);
            htb.addFilter(device, node, minor, matchOf(f.variableId()));
        } catch (HtbException e) {
            deleteQuietly(minor, -1);
            throw e;
        }
        usedNodes.set(node);
        installed.put(f.flowId(), new Installed(f, node, rates, queue));
    }

    private void remove(Installed i) throws HtbException {
        htb.deleteFilter(device, i.node()); // first, so no packet is steered to a class that is going
        htb.deleteClass(device, i.minor());
        usedNodes.clear(i.node());
        installed.remove(i.flow().flowId());
    }

    private void deleteQuietly(int minor, int node) {
        try {
            if (node > 0) {
                htb.deleteFilter(device, node);
            }
            htb.deleteClass(device, minor);
        } catch (HtbException e) {
            LOG.warn("removing class 1:{} on {}: {}", Integer.toHexString(minor), device, e.getMessage());
        }
    }

    @Override
    public synchronized List<KernelFlowStatistics> statistics() throws HtbException {
        Map<Integer, Long> flowOfMinor = new HashMap<>();
        installed.values().forEach(i -> flowOfMinor.put(i.minor(), i.flow().flowId()));
        List<KernelFlowStatistics> out = new ArrayList<>();
        for (ClassStatistics c : htb.classes(device)) {
            Long flow = flowOfMinor.get(c.minor());
            if (flow != null) {
                out.add(new KernelFlowStatistics(flow, Math.max(0, c.bytes() - LINK_HEADER * c.packets()), c.packets(),
                        c.drops(), Math.max(0, c.backlogBytes() - LINK_HEADER * c.queuedPackets()), c.queuedPackets()));
            }
        }
        return out;
    }

    /** The flows in the kernel, by flow id, with their leaf's minor. */
    public synchronized Map<Long, Integer> flowMinors() {
        Map<Long, Integer> m = new HashMap<>();
        installed.forEach((id, i) -> m.put(id, i.minor()));
        return m;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        installed.clear();
        try {
            if (htb.ifindex(device) == ifindex) { // a device made anew has none of this tree (and may have another's)
                htb.clear(device);
            }
        } catch (HtbException e) {
            LOG.error("removing the class tree on {}: {}", device, e.getMessage());
        }
    }

    /** Minors of this scheme that are not flows, for naming them in listings. */
    public static String nameOf(int minor) {
        return switch (minor) {
            case LINK -> "link";
            case UNCLASSIFIED -> "unclassified";
            case HRT -> "HRT";
            case LRT -> "LRT";
            case BEST_EFFORT -> "BE";
            default -> minor > FIRST_FLOW && minor <= FIRST_FLOW + MAX_FLOWS ? "flow" : "?";
        };
    }
}
