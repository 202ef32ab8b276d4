package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the pauses out of a router process's GC log. */
class GcLogTest {
    @Test
    void pausesAreReadWithTheirUptimeKindAndLength() {
        String log = String.join("\n",
                "[0.006s][info][gc] Using G1",
                "[1.532s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.456ms",
                "[2.100s][info][gc] GC(1) Pause Young (Concurrent Start) (Metadata GC Threshold) 30M->5M(256M) 5.012ms",
                "[2.180s][info][gc] GC(2) Concurrent Mark Cycle 41.320ms",
                "[2.190s][info][gc] GC(2) Pause Remark 6M->6M(256M) 1.204ms",
                "[9.000s][info][gc] GC(3) Pause Full (System.gc()) 10M->4M(64M) 12.5ms",
                "");
        List<GcLog.Pause> pauses = GcLog.pauses(log);
        assertEquals(4, pauses.size(), "the concurrent cycle is not a pause: " + pauses);
        assertEquals(new GcLog.Pause(1.532, "Pause Young (Normal) (G1 Evacuation Pause)", 3.456), pauses.get(0));
        assertEquals(5.012, pauses.get(1).millis());
        assertEquals("Pause Remark", pauses.get(2).kind());
        assertEquals(12.5, pauses.get(3).millis());
        assertEquals(9.0, pauses.get(3).uptimeSeconds());
    }

    @Test
    void anEmptyOrForeignLogHasNoPauses() {
        assertTrue(GcLog.pauses("").isEmpty());
        assertTrue(GcLog.pauses("router r1 running; SIGTERM or Ctrl-C stops it").isEmpty());
    }
}
