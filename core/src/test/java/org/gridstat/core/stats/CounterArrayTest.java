package org.gridstat.core.stats;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CounterArrayTest {
    @Test
    void readersSeeMonotonicCountsWhileTheWriterCounts() throws Exception {
        CounterArray c = new CounterArray(2);
        AtomicBoolean decreased = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            long last = 0;
            while (last < 1_000_000) {
                long v = c.get(0);
                if (v < last) {
                    decreased.set(true);
                }
                last = v;
            }
        });
        reader.start();
        for (int i = 0; i < 1_000_000; i++) {
            c.increment(0);
        }
        c.add(1, 42);
        reader.join(10_000);
        assertFalse(reader.isAlive());
        assertFalse(decreased.get());
        assertEquals(1_000_000, c.get(0));
        assertEquals(42, c.get(1));
    }
}
