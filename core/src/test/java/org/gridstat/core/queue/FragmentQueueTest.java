package org.gridstat.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
