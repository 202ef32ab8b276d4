package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** How a buffer read with UDP_GRO splits: by the kernel's segment size, or whole where that cannot be the kernel's. */
class CoalescedBufferTest {
    @Test
    void splitsAtTheSegmentSizeWithAShorterLast() {
        assertEquals(3, CoalescedBuffer.datagrams(3 * 1322, 1322), "equal datagrams");
        assertEquals(4, CoalescedBuffer.datagrams(3 * 1322 + 798, 1322), "the last shorter");
        assertEquals(2, CoalescedBuffer.datagrams(1323, 1322), "a one-byte last");
        assertEquals(CoalescedBuffer.MAX_SEGMENTS, CoalescedBuffer.datagrams(CoalescedBuffer.MAX_SEGMENTS * 300, 300));
    }

    @Test
    void aSegmentSizeThatCannotBeTheKernelsLeavesTheBufferWhole() {
        assertEquals(1, CoalescedBuffer.datagrams(1322, 0), "no segment size: a lone datagram");
        assertEquals(1, CoalescedBuffer.datagrams(1322, 1322), "one segment");
        assertEquals(1, CoalescedBuffer.datagrams(1322, 4000), "larger than the buffer");
        assertEquals(1, CoalescedBuffer.datagrams(1322, -5), "negative");
        assertEquals(1, CoalescedBuffer.datagrams(65_507, 1), "more segments than any kernel coalesces");
        assertEquals(1, CoalescedBuffer.datagrams(CoalescedBuffer.MAX_SEGMENTS * 300 + 1, 300));
        assertEquals(1, CoalescedBuffer.datagrams(0, 0), "an empty datagram");
    }
}
