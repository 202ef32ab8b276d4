package org.gridstat.htb.internal;

import java.io.IOException;
import org.gridstat.htb.HtbException;

/**
 * tc's requests over one NETLINK_ROUTE socket, in libgridstat-htb. The socket is a file descriptor
 * owned by the caller; every call names its device (looked up in the socket's network namespace)
 * and the operation to name in an {@link HtbException}. Classes are minors of qdisc {@code 1:}.
 * Callers serialize the use of one socket. {@link NativeLibrary#load()} first.
 */
public final class TrafficControl {
    /** Longs per class in {@link #htbClasses}, in the order of ClassStatistics' components. */
    public static final int CLASS_FIELDS = 16;

    private TrafficControl() {
    }

    /** A bound NETLINK_ROUTE socket in this thread's network namespace, with extended acks asked for. */
    public static native int open() throws IOException;

    public static native void close(int socket);

    /** The errno's English text. */
    public static native String strerror(int errno);

    public static native int ifindex(int socket, String operation, String dev) throws HtbException;

    /** The htb qdisc 1: at the root, r2q and default class as given; EEXIST if any non-default root is there. */
    public static native void addHtbRoot(int socket, String operation, String dev, int defaultMinor, int r2q)
            throws HtbException;

    /** Deletes the root qdisc if it is htb 1:; false if the root is anything else or there is none. */
    public static native boolean deleteHtbRoot(int socket, String operation, String dev) throws HtbException;

    /** The root qdisc's kind, or null if none is listed (a device that has never been up: noop). */
    public static native String rootQdiscKind(int socket, String operation, String dev) throws HtbException;

    /**
     * Creates (create: fails with EEXIST if present) or changes (fails with ENOENT if absent) class
     * 1:minor under 1:parentMinor (0: under the qdisc). Rates in bytes per second, bursts in bytes.
     */
    public static native void putHtbClass(int socket, String operation, String dev, boolean create, int parentMinor,
            int minor, long rate, long ceil, int burst, int cburst, int prio, int quantum) throws HtbException;

    public static native void deleteHtbClass(int socket, String operation, String dev, int minor)
            throws HtbException;

    /**
     * Every class of qdisc 1: (minor 0), or class 1:minor alone (an empty array if it does not exist),
     * {@link #CLASS_FIELDS} longs each.
     */
    public static native long[] htbClasses(int socket, String operation, String dev, int minor) throws HtbException;

    /** A pfifo of that limit, handle handleMajor:, as the leaf qdisc of class 1:classMinor; replaces what is there. */
    public static native void putPfifo(int socket, String operation, String dev, int classMinor, int handleMajor,
            int limit) throws HtbException;

    /**
     * A u32 filter on parent 1:, protocol ip, prio 1, handle 800::node, to class 1:classMinor.
     *
     * @param keys (offset, value, mask) triples; offsets from the IPv4 header, values and masks as read big-endian
     */
    public static native void addU32(int socket, String operation, String dev, int node, int classMinor, int[] keys)
            throws HtbException;

    public static native void deleteU32(int socket, String operation, String dev, int node) throws HtbException;

    /**
     * Creates an htb qdisc on the loopback device of a private network namespace made for the purpose.
     *
     * @return 0 if the kernel took it; the errno if it refused; minus the errno if no private namespace could be
     *     made (so nothing is known)
     */
    public static native int probeHtb();
}
