package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.gateway.c37118.frame.FrameReject;
import org.junit.jupiter.api.Test;

/** A device's drops named in one line a period, by reason; silence when nothing is dropped. */
class DropLogTest {
    private static final long S = 1_000_000_000L;

    @Test
    void oneLineAPeriodNamesWhatWasDroppedSinceTheLast() {
        DeviceCounters c = new DeviceCounters("pmu-7");
        DropLog log = new DropLog("pmu-7", c, 10 * S, 0);
        for (int i = 0; i < 970; i++) {
            c.add(DeviceCounter.DATA_FLOOD);
        }
        c.reject(FrameReject.BAD_CRC);
        c.add(DeviceCounter.DATA_FRAMES); // not a drop
        assertNull(log.poll(10 * S - 1), "not before the period ends");
        assertEquals("device pmu-7: dropped 971 in the last 10 s: DATA_FLOOD 970, BAD_CRC 1", log.poll(10 * S));
        assertNull(log.poll(20 * S), "nothing new: nothing said");
        c.add(DeviceCounter.DATA_STALE);
        assertNull(log.poll(25 * S));
        assertEquals("device pmu-7: dropped 1 in the last 10 s: DATA_STALE 1", log.poll(30 * S));
    }
}
