package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** The ring of released events awaiting their datagram's close: order kept through growth and wrap. */
class OpenDatagramEventsTest {
    @Test
    void eventsComeOutOldestFirstThroughWrapsAndGrowth() {
        OpenDatagramEvents ring = new OpenDatagramEvents();
        long next = 0;
        long expected = 0;
        // wrap the first 32 entries several times, then grow past them while wrapped
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 20; i++) {
                ring.add((int) (next % 7) - 1, next++);
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(expected, ring.headFlow());
                assertEquals((int) (expected % 7) - 1, ring.headSlot());
                ring.removeHead();
                expected++;
            }
        }
        for (int i = 0; i < 10; i++) {
            ring.add(0, next++);
        }
        ring.removeHead();
        expected++;
        for (int i = 0; i < 300; i++) {
            ring.add(0, next++);
        }
        while (!ring.isEmpty()) {
            assertEquals(expected++, ring.headFlow());
            ring.removeHead();
        }
        assertEquals(next, expected);
    }

    @Test
    void aFullRingForgetsItsOldest() {
        OpenDatagramEvents ring = new OpenDatagramEvents();
        for (int i = 0; i < OpenDatagramEvents.MOST + 10; i++) {
            ring.add(1, i);
        }
        assertEquals(10, ring.headFlow(), "the ten oldest forgotten");
        int n = 0;
        while (!ring.isEmpty()) {
            ring.removeHead();
            n++;
        }
        assertEquals(OpenDatagramEvents.MOST, n);
    }
}
