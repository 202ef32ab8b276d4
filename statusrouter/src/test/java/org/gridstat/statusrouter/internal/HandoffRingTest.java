package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring that carries validated frames from another ingress loop to the data-path loop. */
class HandoffRingTest {
    private static ByteBuffer frame(int length, byte fill) {
        ByteBuffer b = ByteBuffer.allocateDirect(2048);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (fill + i));
        }
        return b;
    }

    @Test
    void framesComeOutWholeInOrderAndAFullRingRefuses() {
        HandoffRing ring = new HandoffRing(4);
        for (int i = 0; i < 4; i++) {
            assertTrue(ring.offer(frame(48 + i, (byte) i), 48 + i));
        }
        assertFalse(ring.offer(frame(48, (byte) 9), 48), "full");
        List<byte[]> out = new ArrayList<>();
        assertEquals(4, ring.drain((slots, offset, length) -> out.add(java.util.Arrays.copyOfRange(slots, offset, offset + length))));
        for (int i = 0; i < 4; i++) {
            assertEquals(48 + i, out.get(i).length);
            assertEquals((byte) i, out.get(i)[0]);
            assertEquals((byte) (i + 47 + i), out.get(i)[47 + i], "last byte of frame " + i);
        }
        assertTrue(ring.offer(frame(60, (byte) 5), 60), "room again after the drain, across the wrap");
        assertEquals(1, ring.drain((slots, offset, length) -> assertEquals(60, length)));
        assertEquals(0, ring.drain((slots, offset, length) -> fail("empty")));
    }

    @Test
    void aProducerAndAConsumerOnTwoThreadsLoseAndReorderNothing() throws Exception {
        HandoffRing ring = new HandoffRing(64);
        int frames = 200_000;
        Thread producer = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocateDirect(64);
            for (int i = 0; i < frames; ) {
                b.putInt(0, i);
                if (ring.offer(b, 4 + (i % 60))) {
                    i++;
                } else {
                    Thread.onSpinWait();
                }
            }
        });
        producer.start();
        int[] next = {0};
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (next[0] < frames && System.nanoTime() < deadline) {
            ring.drain((slots, offset, length) -> {
                int seq = ByteBuffer.wrap(slots, offset, length).getInt();
                assertEquals(next[0], seq, "in order, none lost");
                assertEquals(4 + (seq % 60), length);
                next[0]++;
            });
        }
        producer.join();
        assertEquals(frames, next[0]);
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new HandoffRing(1000));
    }
}
