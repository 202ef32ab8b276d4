package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a router process's counters from the line it logs as it stops. */
class RouterLogTest {
    private static final String LOG = String.join("\n",
            "2026-11-23T20:06:48.882Z INFO DataPlane - router bench-flood forwarding on /127.0.0.1:23999 (epoll, 1 event loop(s))",
            "router bench-flood running; SIGTERM or Ctrl-C stops it",
            "2026-11-23T20:06:51.699Z INFO StatusRouterComponent - router bench-flood stopped;"
                    + " counters received=961234 forwarded=95012 sendErrors=0 dropped={} handoffDrops=0 emulationLost=0"
                    + " engine[unknownVariable=0 sourceTimeAhead=0 sourceTimeStale=0 filtered=0 queued=961234 refused=866200]"
                    + " link sink[sent=95012 overflow=866200 deadlineMisses=7 backlog=0]",
            "");

    @Test
    void theLinksCountersAreReadByName() {
        String line = RouterLog.countersLine(LOG);
        assertNotNull(line);
        Map<String, Long> link = RouterLog.link(line, "sink");
        assertEquals(7L, link.get("deadlineMisses"));
        assertEquals(866_200L, link.get("overflow"));
        assertEquals(95_012L, link.get("sent"));
        assertTrue(RouterLog.link(line, "other").isEmpty());
    }

    @Test
    void aLogWithoutTheLineGivesNothingRatherThanAWrongNumber() {
        assertNull(RouterLog.countersLine("router r1 running; SIGTERM or Ctrl-C stops it\n"));
        assertTrue(RouterLog.link("router r1 stopped; counters received=1 link sink[sent=1]", "sink")
                .get("deadlineMisses") == null);
    }
}
