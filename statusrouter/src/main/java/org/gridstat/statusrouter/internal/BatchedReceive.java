package org.gridstat.statusrouter.internal;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives up to a batch of datagrams with one {@code recvmmsg} system call, each into a fixed
 * slot of a direct buffer, through the epoll transport's own native {@code recvmmsg} (the one its
 * datagram channels use, which Netty does not make public). Netty fills the packets' lengths in
 * place, so a receive allocates nothing. Bound to the Netty version the project pins; where that
 * entry point is missing or refuses, {@link #into} says why once in the log and gives none, and
 * the socket reads one datagram per {@code recv} as before.
 *
 * <p>A socket with UDP_GRO on is read with {@link #receiveCoalesced} instead: one {@code recvmsg}
 * per buffer, through the transport's native {@code recvmsg}, which asks for the kernel's UDP_GRO
 * control message and leaves its segment size in the packet. Netty's {@code recvmmsg} gives the
 * kernel no room for control messages (its native code sets some aside only where reading
 * {@code IP_RECVORIGDSTADDR} fails), so after it a coalesced buffer looks like one long datagram
 * with segment size 0 ({@code CoalescedReceiveTest} pins both).
 */
final class BatchedReceive {
    private static final Logger LOG = LoggerFactory.getLogger(BatchedReceive.class);
    private static final String EPOLL = "io.netty.channel.epoll.";
    private static final MethodHandle RECVMMSG;
    private static final MethodHandle SET_ADDRESS;
    private static final MethodHandle SET_COUNT;
    private static final MethodHandle GET_COUNT;
    private static final MethodHandle RECVMSG;
    private static final MethodHandle GET_SEGMENT_SIZE;
    private static final MethodHandle SET_SENDER_LENGTH;
    private static final MethodHandle GET_SENDER_LENGTH;
    private static final Constructor<?> ARRAY;
    private static final Constructor<?> PACKET;
    private static final Class<?> PACKET_CLASS;
    private static final String UNAVAILABLE;
    private static final String COALESCED_UNAVAILABLE;

    static {
        MethodHandle recv = null;
        MethodHandle setAddress = null;
        MethodHandle setCount = null;
        MethodHandle getCount = null;
        Constructor<?> array = null;
        Constructor<?> packet = null;
        Class<?> packetClass = null;
        String why = null;
        try {
            Class<?> nativeClass = Class.forName(EPOLL + "Native");
            Class<?> arrayClass = Class.forName(EPOLL + "NativeDatagramPacketArray");
            packetClass = Class.forName(EPOLL + "NativeDatagramPacketArray$NativeDatagramPacket");
            MethodHandles.Lookup nat = MethodHandles.privateLookupIn(nativeClass, MethodHandles.lookup());
            MethodHandles.Lookup pkt = MethodHandles.privateLookupIn(packetClass, MethodHandles.lookup());
            Class<?> packets = Array.newInstance(packetClass, 0).getClass();
            recv = nat.findStatic(nativeClass, "recvmmsg",
                            MethodType.methodType(int.class, int.class, boolean.class, packets, int.class, int.class))
                    .asType(MethodType.methodType(int.class, int.class, boolean.class, Object.class, int.class, int.class));
            setAddress = pkt.findSetter(packetClass, "memoryAddress", long.class)
                    .asType(MethodType.methodType(void.class, Object.class, long.class));
            setCount = pkt.findSetter(packetClass, "count", int.class)
                    .asType(MethodType.methodType(void.class, Object.class, int.class));
            getCount = pkt.findGetter(packetClass, "count", int.class)
                    .asType(MethodType.methodType(int.class, Object.class));
            array = arrayClass.getDeclaredConstructor();
            array.setAccessible(true);
            packet = packetClass.getDeclaredConstructor(arrayClass);
            packet.setAccessible(true);
            if (!PlatformDependent.hasUnsafe()) {
                why = "no direct buffer addresses without sun.misc.Unsafe";
            } else if (PlatformDependent.addressSize() != Long.BYTES) {
                why = "not a 64-bit platform";
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            why = e.toString();
        }
        RECVMMSG = recv;
        SET_ADDRESS = setAddress;
        SET_COUNT = setCount;
        GET_COUNT = getCount;
        ARRAY = array;
        PACKET = packet;
        PACKET_CLASS = packetClass;
        UNAVAILABLE = why;

        MethodHandle recvmsg = null;
        MethodHandle getSegmentSize = null;
        MethodHandle setSenderLength = null;
        MethodHandle getSenderLength = null;
        String coalescedWhy = why;
        if (why == null) {
            try {
                Class<?> nativeClass = Class.forName(EPOLL + "Native");
                MethodHandles.Lookup nat = MethodHandles.privateLookupIn(nativeClass, MethodHandles.lookup());
                MethodHandles.Lookup pkt = MethodHandles.privateLookupIn(packetClass, MethodHandles.lookup());
                recvmsg = nat.findStatic(nativeClass, "recvmsg", MethodType.methodType(int.class, int.class, boolean.class, packetClass))
                        .asType(MethodType.methodType(int.class, int.class, boolean.class, Object.class));
                getSegmentSize = pkt.findGetter(packetClass, "segmentSize", int.class)
                        .asType(MethodType.methodType(int.class, Object.class));
                setSenderLength = pkt.findSetter(packetClass, "senderAddrLen", int.class)
                        .asType(MethodType.methodType(void.class, Object.class, int.class));
                getSenderLength = pkt.findGetter(packetClass, "senderAddrLen", int.class)
                        .asType(MethodType.methodType(int.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                coalescedWhy = e.toString();
            }
        }
        RECVMSG = recvmsg;
        GET_SEGMENT_SIZE = getSegmentSize;
        SET_SENDER_LENGTH = setSenderLength;
        GET_SENDER_LENGTH = getSenderLength;
        COALESCED_UNAVAILABLE = coalescedWhy;
    }

    private final Object packets;
    private final Object[] each;
    /** One {@code struct iovec} per slot (base, length: two 64-bit words), which the packets point at. */
    private final ByteBuffer iovecs;
    /** Slots the last receive filled, also when it failed part way. */
    private int filled;

    private BatchedReceive(ByteBuffer slab, int slotBytes, int slots) throws ReflectiveOperationException {
        Object owner = ARRAY.newInstance();
        this.packets = Array.newInstance(PACKET_CLASS, slots);
        this.each = new Object[slots];
        this.iovecs = ByteBuffer.allocateDirect(IOVEC_BYTES * slots).order(ByteOrder.nativeOrder());
        long base = PlatformDependent.directBufferAddress(slab);
        long iov = PlatformDependent.directBufferAddress(iovecs);
        for (int i = 0; i < slots; i++) {
            iovecs.putLong(i * IOVEC_BYTES, base + (long) i * slotBytes);
            iovecs.putLong(i * IOVEC_BYTES + Long.BYTES, slotBytes);
            Object p = PACKET.newInstance(owner);
            try {
                // A packet names its scatter list (address and count of iovecs), as Netty's own
                // datagram channel sets it up; after a receive, count holds the datagram's length.
                SET_ADDRESS.invokeExact(p, iov + (long) i * IOVEC_BYTES);
            } catch (Throwable t) {
                throw new IllegalStateException("cannot set up recvmmsg packets", t);
            }
            Array.set(packets, i, p);
            each[i] = p;
        }
    }

    private static final int IOVEC_BYTES = 16;

    /** Why batched receives are unavailable, or {@code null} if they are available. */
    static String unavailable() {
        return UNAVAILABLE;
    }

    /** Why {@link #receiveCoalesced} is unavailable, or {@code null} if it is available. */
    static String coalescedUnavailable() {
        return COALESCED_UNAVAILABLE;
    }

    /**
     * Batched receives into {@code slots} slots of {@code slotBytes} each at the start of
     * {@code slab} (a direct buffer), or {@code null} (logged once) where they are unavailable.
     */
    static BatchedReceive into(ByteBuffer slab, int slotBytes, int slots) {
        if (UNAVAILABLE != null) {
            LoggedOnce.warn(LOG, "reading one datagram per recv: recvmmsg is unavailable ({})", UNAVAILABLE);
            return null;
        }
        if (!slab.isDirect() || slab.capacity() < (long) slotBytes * slots) {
            throw new IllegalArgumentException("the slab must be a direct buffer of " + slots + " x " + slotBytes + " bytes");
        }
        try {
            return new BatchedReceive(slab, slotBytes, slots);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LoggedOnce.warn(LOG, "reading one datagram per recv: recvmmsg could not be set up ({})", e.toString());
            return null;
        }
    }

    /**
     * Receives what is queued on {@code fd}, at most one datagram a slot; returns how many arrived
     * (0 if none). Datagram {@code i} lies at {@code i * slotBytes} in the slab, {@link #length} long.
     */
    int receive(int fd) throws IOException {
        filled = 0;
        try {
            for (Object p : each) {
                SET_COUNT.invokeExact(p, 1); // one iovec each
            }
            filled = (int) RECVMMSG.invokeExact(fd, false, packets, 0, each.length);
            return filled;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Receives what is queued on {@code fd}, a socket with UDP_GRO on: one buffer a slot, each a
     * datagram or several the kernel coalesced ({@link #segmentSize}), until nothing is queued, the
     * slots are full, or the buffers hold {@code datagrams} datagrams (a coalesced one counted by
     * its segments, as {@link CoalescedBuffer#datagrams} splits it). Returns the slots filled; if
     * a receive fails after some were, {@link #filled()} still says how many.
     */
    int receiveCoalesced(int fd, int datagrams) throws IOException {
        filled = 0;
        try {
            int read = 0;
            for (int i = 0; i < each.length && read < datagrams; i++) {
                Object p = each[i];
                SET_COUNT.invokeExact(p, 1); // recvmsg leaves the length here: one iovec again
                SET_SENDER_LENGTH.invokeExact(p, 0); // a datagram's sender address (4 or 16 bytes), even an empty one's from port 0; none for "nothing queued"
                int n = (int) RECVMSG.invokeExact(fd, false, p);
                if (n == 0 && (int) GET_SENDER_LENGTH.invokeExact(p) == 0) {
                    break;
                }
                filled = i + 1;
                read += CoalescedBuffer.datagrams(n, (int) GET_SEGMENT_SIZE.invokeExact(p));
            }
            return filled;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The slots the last receive filled, also when it failed after filling some. */
    int filled() {
        return filled;
    }

    /**
     * The segment size of the buffer in slot {@code i} after a {@link #receiveCoalesced}: the
     * length of each datagram the kernel coalesced into it (the last may be shorter), 0 for a lone
     * datagram.
     */
    int segmentSize(int i) {
        try {
            return (int) GET_SEGMENT_SIZE.invokeExact(each[i]);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The length of the datagram in slot {@code i} after a {@link #receive}. */
    int length(int i) {
        try {
            return (int) GET_COUNT.invokeExact(each[i]);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Logs a reason once per JVM: one socket per loop would otherwise say it for each. */
    private static final class LoggedOnce {
        private static volatile boolean said;

        static void warn(Logger log, String message, String reason) {
            if (!said) {
                said = true;
                log.warn(message, reason);
            }
        }
    }
}
