package org.gridstat.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FragmentQueueTest {
    private static List<String> drain(FragmentQueue<String> q) {
        List<String> out = new ArrayList<>();
        while (!q.isEmpty()) {
            out.add(q.headDatagram() + "#" + q.headFragment() + "/" + q.headFragments());
            q.remove();
        }
        return out;
    }

    @Test
    void tailDropQueuesWhatFitsAndLeavesTheRestOfADatagramBehind() {
        FragmentQueue<String> q = new FragmentQueue<>(5, FragmentQueue.Policy.TAIL_DROP);
        assertEquals(2, q.offer("a", 2));
        assertEquals(2, q.offer("b", 2));
        assertEquals(1, q.offer("c", 2)); // one slot left: the first fragment gets in, the second not
        assertEquals(0, q.offer("d", 2));
        assertEquals(List.of("a#0/2", "a#1/2", "b#0/2", "b#1/2", "c#0/2"), drain(q));
        assertEquals(3, q.droppedPackets());
        assertEquals(1, q.partialDatagrams());
        assertEquals(1, q.droppedDatagrams());
    }

    @Test
    void datagramAwareQueuesWholeDatagramsOrNothing() {
        FragmentQueue<String> q = new FragmentQueue<>(5, FragmentQueue.Policy.DATAGRAM_AWARE);
        assertEquals(2, q.offer("a", 2));
        assertEquals(2, q.offer("b", 2));
        assertEquals(0, q.offer("c", 2)); // one slot left: c is dropped whole
        assertEquals(1, q.offer("d", 1)); // but a one-packet datagram still fits
        assertEquals(List.of("a#0/2", "a#1/2", "b#0/2", "b#1/2", "d#0/1"), drain(q));
        assertEquals(2, q.droppedPackets());
        assertEquals(0, q.partialDatagrams());
        assertEquals(1, q.droppedDatagrams());
    }

    @Test
    void theRingWrapsInOrder() {
        FragmentQueue<String> q = new FragmentQueue<>(3, FragmentQueue.Policy.DATAGRAM_AWARE);
        for (int round = 0; round < 10; round++) {
            assertEquals(3, q.offer("x" + round, 3));
            assertEquals(List.of("x" + round + "#0/3", "x" + round + "#1/3", "x" + round + "#2/3"), drain(q));
        }
        assertNull(q.headDatagram());
        assertThrows(IllegalStateException.class, q::remove);
        assertThrows(IllegalArgumentException.class, () -> q.offer("y", 0));
        assertThrows(IllegalArgumentException.class, () -> new FragmentQueue<String>(0, FragmentQueue.Policy.TAIL_DROP));
    }

    @Test
    void fragmentsArrivingOneByOneInterleaveAndTailDropBreaksTheLateOnes() {
        FragmentQueue<String> q = new FragmentQueue<>(3, FragmentQueue.Policy.TAIL_DROP);
        // two datagrams sent at the same instant: both first fragments, then both second ones
        assertTrue(q.offerFragment("a", 0, 2));
        assertTrue(q.offerFragment("b", 0, 2));
        assertTrue(q.offerFragment("a", 1, 2));
        assertFalse(q.offerFragment("b", 1, 2)); // full: b's first fragment will take the wire for nothing
        assertEquals(List.of("a#0/2", "b#0/2", "a#1/2"), drain(q));
        assertEquals(1, q.droppedPackets());
    }

    @Test
    void datagramAwareKeepsRoomForTheRestOfADatagramWhoseFirstFragmentItQueued() {
        FragmentQueue<String> q = new FragmentQueue<>(4, FragmentQueue.Policy.DATAGRAM_AWARE);
        assertTrue(q.offerFragment("a", 0, 2));
        assertTrue(q.offerFragment("b", 0, 2));
        assertFalse(q.offerFragment("c", 0, 2)); // two slots free, but both are promised to a and b
        assertEquals(0, q.offer("d", 1)); // a whole datagram offered at once respects the promise too
        assertTrue(q.offerFragment("a", 1, 2));
        assertTrue(q.offerFragment("b", 1, 2));
        assertEquals(List.of("a#0/2", "b#0/2", "a#1/2", "b#1/2"), drain(q));
        assertEquals(3, q.droppedPackets());
        assertEquals(2, q.droppedDatagrams());
        assertThrows(IllegalStateException.class, () -> q.offerFragment("c", 1, 2)); // its first was refused
        assertThrows(IllegalArgumentException.class, () -> q.offerFragment("e", 2, 2));
    }
}
