package org.gridstat.statusrouter.internal;

/**
 * How a buffer read from a socket with UDP_GRO on splits into datagrams. The kernel coalesces
 * datagrams of one length from one sender (a segmented send on loopback arrives whole) and says
 * that length, the segment size, in a control message: the datagrams lie back to back, each
 * segment size long but the last, which may be shorter. A buffer with no segment size is one
 * datagram.
 *
 * <p>A segment size that cannot be the kernel's (negative, not below the length, or cutting the
 * buffer into more segments than any kernel coalesces) leaves the buffer whole: it is validated as
 * one datagram, so it is counted once and dropped by its framing if it is not one, and no reading
 * of the control message can make a router cut a buffer into thousands of pieces.
 */
final class CoalescedBuffer {
    /**
     * The most segments any kernel puts in one buffer: a segmented send of up to UDP_MAX_SEGMENTS
     * (64; 128 since 2024, kernel commit 1382e3b6, also in the stable kernels) reaches a receiver
     * with UDP_GRO whole, and receive coalescing stops at 64.
     */
    static final int MAX_SEGMENTS = 128;

    private CoalescedBuffer() {
    }

    /** The datagrams in a buffer of {@code length} bytes whose segment size is {@code segmentSize} (0: none). */
    static int datagrams(int length, int segmentSize) {
        if (segmentSize <= 0 || segmentSize >= length) {
            return 1;
        }
        int n = (length - 1) / segmentSize + 1;
        return n <= MAX_SEGMENTS ? n : 1;
    }
}
