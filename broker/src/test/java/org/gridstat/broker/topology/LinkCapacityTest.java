package org.gridstat.broker.topology;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

/**
 * A link's class share is its bandwidth times a percentage; the topology takes any positive
 * bandwidth, so the product must not overflow into a negative share that refuses every stream.
 */
class LinkCapacityTest {
    @Test
    void aClassShareOfAVeryFastLinkIsItsShareNotANegativeNumber() {
        long bandwidth = 200_000_000_000_000_000L; // taken by the topology; times 50 it overflows a long
        Topology t = Topology.builder().router("a", 1000).router("b", 1000)
                .between("a", "b", bandwidth, 1_000_000, Topology.Builder.defaultShares()).build();
        Link l = t.link("a", "b");
        assertEquals(bandwidth / 2, l.classCapacity(ServiceClass.HRT));
        assertEquals(bandwidth / 100 * 30, l.classCapacity(ServiceClass.LRT));
        assertEquals(bandwidth / 5, l.classCapacity(ServiceClass.BE));
        assertEquals(0, l.classCapacity(ServiceClass.CONTROL) < 0 ? -1 : 0, "never negative");
        // exact for bandwidths that are not multiples of 100 as well
        Topology small = Topology.builder().router("a", 1000).router("b", 1000)
                .between("a", "b", 12_345, 1_000_000, Topology.Builder.defaultShares()).build();
        assertEquals(12_345L * 30 / 100, small.link("a", "b").classCapacity(ServiceClass.LRT));
    }
}
