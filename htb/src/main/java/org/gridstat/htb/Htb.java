package org.gridstat.htb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.gridstat.htb.internal.Capabilities;
import org.gridstat.htb.internal.NativeLibrary;
import org.gridstat.htb.internal.TrafficControl;

/**
 * Linux HTB on an interface, over one rtnetlink socket: the qdisc {@code 1:} at the root, HTB classes
 * {@code 1:minor} under it, a pfifo per leaf class, and u32 filters that send IPv4 packets to leaves.
 *
 * <p>Class minors are those tc prints in hexadecimal: minor {@code 0x101} is tc's {@code 1:101}.
 * Leaf queue pfifos get the handle {@code (0x1000 + minor):}, so classes that have one are
 * {@code 1:1} to {@code 1:6fff} (the kernel numbers its own qdiscs from {@code 8000:}). Filters are
 * u32 on parent {@code 1:}, protocol ip, prio 1, handle {@code 800::node}.
 *
 * <p>The socket belongs to the network namespace of the thread that opened it, and so do the devices
 * it names: an Htb opened inside {@link org.gridstat.htb.netns.NetworkNamespace#call} shapes that
 * namespace's interfaces. Every method is thread-safe (one request at a time on the socket) and
 * waits for the kernel's acknowledgement; a refusal is an {@link HtbException} carrying the errno and
 * the kernel's extended-ack message. Where the kernel accepts what HTB cannot honour, this class
 * checks first: a class under a parent that does not exist (the kernel would put it at the root), a
 * rate above the parent's ceil, a filter to a class that does not exist or is not a leaf (the kernel
 * would send its packets to the default class).
 */
public final class Htb implements AutoCloseable {
    /** HTB's rate-to-quantum divisor for classes given no quantum (ClassRates always gives one). */
    private static final int R2Q = 10;
    private static final int MAX_MINOR = 0xFFFF;
    private static final int MAX_LEAF_QUEUE_MINOR = 0x6FFF;
    private static final int LEAF_QUEUE_HANDLE_BASE = 0x1000;
    private static final int MAX_FILTER_NODE = 0xFFF;

    private static final int ENOENT = 2;
    private static final int ENODEV = 19;
    private static final int EINVAL = 22;
    private static final int EOPNOTSUPP = 95;

    private final int socket;
    private boolean closed;

    private Htb(int socket) {
        this.socket = socket;
    }

    /** Loads the native library (once per JVM) and opens a netlink route socket. */
    public static Htb open() throws HtbUnavailableException {
        NativeLibrary.load();
        try {
            return new Htb(TrafficControl.open());
        } catch (IOException e) {
            throw new HtbUnavailableException("netlink socket refused: " + e.getMessage(), e);
        }
    }

    /**
     * Null if this process can shape dev, else one sentence why not: the device does not exist, the
     * process lacks CAP_NET_ADMIN, or the kernel has no HTB. Changes nothing on dev: HTB is tried on
     * the loopback device of a private network namespace made for the purpose (once per JVM); where
     * no such namespace can be made (no CAP_SYS_ADMIN) HTB is assumed, and a kernel without it is
     * reported by {@link #createRoot}.
     */
    public String whyNot(String dev) {
        try {
            ifindex(dev);
        } catch (HtbException e) {
            return e.errno() == ENODEV ? "there is no device " + dev : "device " + dev + " could not be looked up: "
                    + e.getMessage();
        }
        if (!Capabilities.effective(Capabilities.CAP_NET_ADMIN)) {
            return "this process lacks CAP_NET_ADMIN, which changing an interface's queueing needs";
        }
        return HtbProbe.whyNot();
    }

    /** The device's interface index; an unknown device is an HtbException (ENODEV). */
    public synchronized int ifindex(String dev) throws HtbException {
        requireOpen();
        return TrafficControl.ifindex(socket, "look up", requireDevice(dev));
    }

    /**
     * Puts the htb qdisc {@code 1:} at dev's root (r2q 10), sending unclassified packets to class
     * {@code 1:defaultMinor} (0: past every class, unshaped). Fails with EEXIST if dev's root qdisc is
     * anything but the kernel's default, ours included.
     */
    public synchronized void createRoot(String dev, int defaultMinor) throws HtbException {
        requireOpen();
        requireRange(defaultMinor, 0, MAX_MINOR, "defaultMinor");
        String operation = "create root 1:";
        try {
            TrafficControl.addHtbRoot(socket, operation, requireDevice(dev), defaultMinor, R2Q);
        } catch (HtbException e) {
            if ((e.errno() == ENOENT || e.errno() == EOPNOTSUPP) && e.detail() == null) {
                throw refusal(operation, dev, e.errno(), "the kernel has no HTB (sch_htb)");
            }
            throw e;
        }
    }

    /**
     * Adds class {@code 1:minor} under {@code 1:parentMinor}, or directly under the qdisc for
     * parentMinor 0. A parent that is a leaf becomes an inner class: its queue and queued packets go.
     * Refused (ENOENT) if the parent does not exist, (EINVAL) if the rate is above the parent's ceil,
     * (EEXIST) if the class exists.
     */
    public synchronized void addClass(String dev, int parentMinor, int minor, ClassRates rates) throws HtbException {
        requireOpen();
        requireClass(dev, parentMinor, minor, rates);
        String operation = "add class " + classId(minor);
        if (parentMinor != 0) {
            requireWithinParent(operation, dev, parentMinor, rates);
        }
        put(operation, dev, true, parentMinor, minor, rates);
    }

    /**
     * Changes class {@code 1:minor}'s rates live: its statistics and queued packets stay. parentMinor
     * must be its parent (HTB does not move classes). Refused (ENOENT) if the class does not exist,
     * (EINVAL) if its parent differs or the rate is above the parent's ceil.
     */
    public synchronized void changeClass(String dev, int parentMinor, int minor, ClassRates rates)
            throws HtbException {
        requireOpen();
        requireClass(dev, parentMinor, minor, rates);
        String operation = "change class " + classId(minor);
        ClassStatistics current = find(operation, dev, minor);
        if (current == null) {
            throw refusal(operation, dev, ENOENT, "class " + classId(minor) + " does not exist");
        }
        if (current.parentMinor() != parentMinor) {
            throw refusal(operation, dev, EINVAL, "its parent is " + parentName(current.parentMinor()) + ", not "
                    + parentName(parentMinor) + " (HTB does not move classes)");
        }
        if (parentMinor != 0) {
            requireWithinParent(operation, dev, parentMinor, rates);
        }
        put(operation, dev, false, parentMinor, minor, rates);
    }

    /** Deletes class {@code 1:minor} and its queue. Refused (ENOENT) if absent, (EBUSY) if it has children or filters. */
    public synchronized void deleteClass(String dev, int minor) throws HtbException {
        requireOpen();
        requireRange(minor, 1, MAX_MINOR, "minor");
        TrafficControl.deleteHtbClass(socket, "delete class " + classId(minor), requireDevice(dev), minor);
    }

    /**
     * Gives leaf class {@code 1:minor} a pfifo of limitPackets as its queue, handle
     * {@code (0x1000 + minor):}; a pfifo already there gets the new limit (its packets stay). minor
     * is 1 to 0x6fff. Refused (ENOENT) if the class does not exist, (EINVAL) if it is not a leaf.
     */
    public synchronized void setLeafQueue(String dev, int minor, int limitPackets) throws HtbException {
        requireOpen();
        requireRange(minor, 1, MAX_LEAF_QUEUE_MINOR, "minor (of a class with a leaf queue)");
        requireRange(limitPackets, 1, Integer.MAX_VALUE, "limitPackets");
        requireDevice(dev);
        String operation = "set leaf queue " + leafQueueHandle(minor) + " of " + classId(minor);
        requireLeaf(operation, dev, minor);
        TrafficControl.putPfifo(socket, operation, dev, minor, LEAF_QUEUE_HANDLE_BASE + minor, limitPackets);
    }

    /**
     * Sends IPv4 packets that match to leaf class {@code 1:classMinor}: a u32 filter on parent
     * {@code 1:}, protocol ip, prio 1, handle {@code 800::node} (node 1 to 0xfff). Refused (EEXIST) if
     * the node is taken, (ENOENT) if the class does not exist, (EINVAL) if it is not a leaf.
     */
    public synchronized void addFilter(String dev, int node, int classMinor, U32Match match) throws HtbException {
        requireOpen();
        requireDevice(dev);
        requireRange(node, 1, MAX_FILTER_NODE, "node");
        requireRange(classMinor, 1, MAX_MINOR, "classMinor");
        Objects.requireNonNull(match, "match");
        String operation = "add filter " + filterHandle(node) + " to " + classId(classMinor);
        requireLeaf(operation, dev, classMinor);
        List<U32Match.Key> keys = match.keys();
        int[] triples = new int[keys.size() * 3];
        for (int i = 0; i < keys.size(); i++) {
            triples[3 * i] = keys.get(i).offset();
            triples[3 * i + 1] = keys.get(i).value();
            triples[3 * i + 2] = keys.get(i).mask();
        }
        TrafficControl.addU32(socket, operation, dev, node, classMinor, triples);
    }

    /** Deletes filter {@code 800::node}. Refused (ENOENT) if there is none. */
    public synchronized void deleteFilter(String dev, int node) throws HtbException {
        requireOpen();
        requireRange(node, 1, MAX_FILTER_NODE, "node");
        TrafficControl.deleteU32(socket, "delete filter " + filterHandle(node), requireDevice(dev), node);
    }

    /** Every HTB class of qdisc {@code 1:} on dev with its statistics, by minor; empty if there is no qdisc 1:. */
    public synchronized List<ClassStatistics> classes(String dev) throws HtbException {
        requireOpen();
        List<ClassStatistics> classes = statistics(TrafficControl.htbClasses(socket, "list classes",
                requireDevice(dev), 0));
        classes.sort(Comparator.comparingInt(ClassStatistics::minor));
        return classes;
    }

    /** The kind of dev's root qdisc: "htb", "noqueue", "pfifo_fast", "mq"...; null if none is listed (noop). */
    public synchronized String rootQdiscKind(String dev) throws HtbException {
        requireOpen();
        return TrafficControl.rootQdiscKind(socket, "show root qdisc", requireDevice(dev));
    }

    /**
     * Deletes dev's root qdisc if it is htb {@code 1:}, and with it every class, queue and filter; the
     * kernel puts back the default qdisc it had before {@link #createRoot} (on a device that is down,
     * when it next comes up). False if the root is not htb 1: (there is none of ours), which is left
     * alone.
     */
    public synchronized boolean clear(String dev) throws HtbException {
        requireOpen();
        return TrafficControl.deleteHtbRoot(socket, "delete root 1:", requireDevice(dev));
    }

    /** Closes the socket; what it created on devices stays. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            TrafficControl.close(socket);
        }
    }

    private void put(String operation, String dev, boolean create, int parentMinor, int minor, ClassRates r)
            throws HtbException {
        TrafficControl.putHtbClass(socket, operation, dev, create, parentMinor, minor, r.rateBytesPerSecond(),
                r.ceilBytesPerSecond(), r.burstBytes(), r.cburstBytes(), r.prio(), r.quantumBytes());
    }

    private void requireWithinParent(String operation, String dev, int parentMinor, ClassRates rates)
            throws HtbException {
        ClassStatistics parent = find(operation, dev, parentMinor);
        if (parent == null) {
            throw refusal(operation, dev, ENOENT, "parent class " + classId(parentMinor) + " does not exist");
        }
        if (rates.rateBytesPerSecond() > parent.ceilBytesPerSecond()) {
            throw refusal(operation, dev, EINVAL, "rate " + rates.rateBytesPerSecond()
                    + " B/s is above the ceil of parent " + classId(parentMinor) + ", "
                    + parent.ceilBytesPerSecond() + " B/s");
        }
    }

    private void requireLeaf(String operation, String dev, int minor) throws HtbException {
        ClassStatistics target = find(operation, dev, minor);
        if (target == null) {
            throw refusal(operation, dev, ENOENT, "class " + classId(minor) + " does not exist");
        }
        if (!target.leaf()) {
            throw refusal(operation, dev, EINVAL, "class " + classId(minor) + " has children; only leaves queue packets");
        }
    }

    private ClassStatistics find(String operation, String dev, int minor) throws HtbException {
        List<ClassStatistics> found = statistics(TrafficControl.htbClasses(socket, operation, dev, minor));
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<ClassStatistics> statistics(long[] f) {
        int n = TrafficControl.CLASS_FIELDS;
        List<ClassStatistics> classes = new ArrayList<>(f.length / n);
        for (int i = 0; i + n <= f.length; i += n) {
            classes.add(new ClassStatistics((int) f[i], (int) f[i + 1], f[i + 2] != 0, f[i + 3], f[i + 4],
                    (int) f[i + 5], f[i + 6], f[i + 7], f[i + 8], f[i + 9], f[i + 10], f[i + 11], f[i + 12],
                    f[i + 13], f[i + 14], f[i + 15]));
        }
        return classes;
    }

    private static HtbException refusal(String operation, String dev, int errno, String detail) {
        return new HtbException(operation, dev, errno, TrafficControl.strerror(errno), detail);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("this Htb is closed");
        }
    }

    private static String requireDevice(String dev) {
        return Objects.requireNonNull(dev, "dev");
    }

    private static void requireClass(String dev, int parentMinor, int minor, ClassRates rates) {
        requireDevice(dev);
        Objects.requireNonNull(rates, "rates");
        requireRange(minor, 1, MAX_MINOR, "minor");
        requireRange(parentMinor, 0, MAX_MINOR, "parentMinor");
        if (parentMinor == minor) {
            throw new IllegalArgumentException("class " + classId(minor) + " cannot be its own parent");
        }
    }

    private static void requireRange(int value, int min, int max, String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(String.format("%s must be 0x%x to 0x%x, not 0x%x", name, min, max,
                    value));
        }
    }

    static String classId(int minor) {
        return "1:" + Integer.toHexString(minor);
    }

    private static String parentName(int parentMinor) {
        return parentMinor == 0 ? "the qdisc 1:" : classId(parentMinor);
    }

    private static String leafQueueHandle(int minor) {
        return Integer.toHexString(LEAF_QUEUE_HANDLE_BASE + minor) + ":";
    }

    private static String filterHandle(int node) {
        return "800::" + Integer.toHexString(node);
    }
}
