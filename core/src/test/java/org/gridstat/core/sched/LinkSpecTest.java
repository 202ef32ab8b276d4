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
}
