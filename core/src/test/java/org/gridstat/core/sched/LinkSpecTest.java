package org.gridstat.core.sched;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;

class LinkSpecTest {
    @Test
    void defaultSharesOfTheLargestCapacityDoNotOverflow() {
        LinkSpec max = LinkSpec.withDefaultShares(Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE / 2, max.classShare(ServiceClass.HRT).rate());
        assertEquals(2_767_011_611_056_432_742L, max.classShare(ServiceClass.LRT).rate(), "30 percent, rounded down");
        assertEquals(Long.MAX_VALUE / 5, max.classShare(ServiceClass.BE).rate());
        assertEquals(Long.MAX_VALUE, max.classShare(ServiceClass.LRT).ceil());
        assertEquals(3_750_000L, LinkSpec.withDefaultShares(12_500_000L).classShare(ServiceClass.LRT).rate());
    }

    @Test
    void percentSharesAreExactAndBoundedAndTheBurstDefaults() {
        LinkSpec l = LinkSpec.ofPercent(1_000_003, 50, 30, 20, 0);
        assertEquals(500_001, l.classShare(ServiceClass.HRT).rate()); // 1,000,003 × 0.5 rounded down
        assertEquals(300_000, l.classShare(ServiceClass.LRT).rate());
        assertEquals(200_000, l.classShare(ServiceClass.BE).rate());
        assertEquals(1_000_003, l.classShare(ServiceClass.BE).ceil());
        assertEquals(LinkSpec.defaultBurst(1_000_003), l.burst());
        assertEquals(4_000, LinkSpec.ofPercent(1_000_003, 50, 30, 20, 4_000).burst());
        assertEquals(Long.MAX_VALUE / 100 * 7 + Long.MAX_VALUE % 100 * 7 / 100, LinkSpec.percentOf(Long.MAX_VALUE, 7));
        assertThrows(IllegalArgumentException.class, () -> LinkSpec.ofPercent(1_000_000, 60, 30, 20, 0));
        assertThrows(IllegalArgumentException.class, () -> LinkSpec.ofPercent(1_000_000, -1, 30, 20, 0));
        assertThrows(IllegalArgumentException.class, () -> LinkSpec.ofPercent(0, 50, 30, 20, 0));
    }
}
