package org.gridstat.htb;

import static org.gridstat.htb.KernelShaping.tc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import org.junit.jupiter.api.Test;

/** clear() leaves the interface's qdiscs and filters as they were before createRoot, and touches no one else's. */
class TeardownTest extends VethPairTest {
    private static final int EEXIST = 17;

    TeardownTest() {
        super("gsh4", 4);
    }

    @Test
    void clearLeavesTheInterfaceAsItWas() throws Exception {
        String qdiscs = tc("qdisc", "show", "dev", dev);
        String filters = tc("filter", "show", "dev", dev);
        String kind = htb.rootQdiscKind(dev);

        htb.createRoot(dev, 0x2);
        htb.addClass(dev, 0, 0x1, new ClassRates(1_000_000, 1_000_000, 3_000, 3_000, 0, 0));
        htb.addClass(dev, 0x1, 0x2, new ClassRates(100_000, 1_000_000, 3_000, 3_000, 7, 0));
        htb.addClass(dev, 0x1, 0x101, new ClassRates(100_000, 200_000, 3_000, 3_000, 0, 0));
        htb.setLeafQueue(dev, 0x101, 20);
        htb.setLeafQueue(dev, 0x2, 20);
        htb.addFilter(dev, 1, 0x101, U32Match.udp().destination((Inet4Address) link.farAddress()).build());
        htb.addFilter(dev, 2, 0x101, U32Match.udp().destinationPort(5_000).build());
        assertNotEquals(qdiscs, tc("qdisc", "show", "dev", dev));
        assertNotEquals(filters, tc("filter", "show", "dev", dev));
        assertEquals("htb", htb.rootQdiscKind(dev));

        assertTrue(htb.clear(dev));

        assertEquals(qdiscs, tc("qdisc", "show", "dev", dev));
        assertEquals(filters, tc("filter", "show", "dev", dev));
        assertEquals(kind, htb.rootQdiscKind(dev));
        assertTrue(htb.classes(dev).isEmpty());
        assertFalse(htb.clear(dev), "nothing of ours is left to clear");
    }

    /**
     * The kernel grafts a device's default qdisc back only on a device that is up; one that is down
     * gets it when it next comes up, and shows none (noop) until then.
     */
    @Test
    void clearOnADeviceThatIsDownRestoresTheDefaultWhenItComesUp() throws Exception {
        String qdiscs = tc("qdisc", "show", "dev", dev);
        String kind = htb.rootQdiscKind(dev);
        KernelShaping.ip("link", "set", dev, "down");

        htb.createRoot(dev, 0x2);
        htb.addClass(dev, 0, 0x2, new ClassRates(100_000, 1_000_000, 3_000, 3_000, 7, 0));
        assertTrue(htb.clear(dev));
        assertEquals(null, htb.rootQdiscKind(dev), "no qdisc while down");

        KernelShaping.ip("link", "set", dev, "up");
        assertEquals(qdiscs, tc("qdisc", "show", "dev", dev));
        assertEquals(kind, htb.rootQdiscKind(dev));
    }

    @Test
    void someoneElsesRootQdiscIsNeitherReplacedNorCleared() throws Exception {
        tc("qdisc", "add", "dev", dev, "root", "handle", "5:", "tbf", "rate", "1mbit", "burst", "10kb", "latency",
                "50ms");
        String qdiscs = tc("qdisc", "show", "dev", dev);

        HtbException refused = assertThrows(HtbException.class, () -> htb.createRoot(dev, 0x2));
        assertEquals(EEXIST, refused.errno());
        assertFalse(htb.clear(dev));

        assertEquals(qdiscs, tc("qdisc", "show", "dev", dev));
        assertEquals("tbf", htb.rootQdiscKind(dev));
    }
}
