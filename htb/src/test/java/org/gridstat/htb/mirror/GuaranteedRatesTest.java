package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.junit.jupiter.api.Test;

/** The rates a link's leaves are guaranteed: an HRT flow's shortfall taken from best effort, then LRT. */
class GuaranteedRatesTest {
    private static KernelFlow flow(long id, ServiceClass c, long assured, long ceiling, long shortfall) {
        return new KernelFlow(id, 100 + id, c, assured, ceiling, shortfall, 288);
    }

    @Test
    void withNothingShortEveryLeafHasItsAssuredRate() {
        List<KernelFlow> flows = List.of(flow(1, ServiceClass.HRT, 5_000, 20_000, 0), flow(2, ServiceClass.LRT, 3_000, 6_000, 0),
                flow(3, ServiceClass.BE, 700, 1_400, 0));
        assertEquals(Map.of(1L, 5_000L, 2L, 3_000L, 3L, 700L), LinkClassTree.guaranteed(flows));
    }

    @Test
    void anHrtShortfallComesFromBestEffortFirstThenLrtInProportionToTheirRates() {
        List<KernelFlow> flows = List.of(flow(1, ServiceClass.HRT, 15_000, 20_000, 1_500),
                flow(2, ServiceClass.LRT, 3_008, 6_000, 0), flow(3, ServiceClass.LRT, 1_508, 6_000, 0),
                flow(4, ServiceClass.BE, 708, 1_400, 0), flow(5, ServiceClass.BE, 208, 1_400, 0));
        Map<Long, Long> g = LinkClassTree.guaranteed(flows);
        assertEquals(8L, g.get(4L), "best effort gives all but the least rate");
        assertEquals(8L, g.get(5L));
        // 900 found in best effort; 600 more from LRT's 4,500 above the least rate, two thirds and one third
        assertEquals(3_008 - 400, g.get(2L));
        assertEquals(1_508 - 200, g.get(3L));
        assertEquals(16_500L, g.get(1L), "the HRT flow gets what it lacked");
        long before = flows.stream().mapToLong(KernelFlow::assuredRate).sum();
        assertEquals(before + 1_500 - 1_500, g.values().stream().mapToLong(Long::longValue).sum(), "no more than before in all");
    }

    @Test
    void whatCannotBeFoundIsSharedAmongTheShortHrtFlowsAndNoLeafGoesBelowTheLeastRate() {
        List<KernelFlow> flows = List.of(flow(1, ServiceClass.HRT, 10_000, 20_000, 3_000),
                flow(2, ServiceClass.HRT, 10_000, 11_000, 5_000), // may take only 1,000 (its ceiling)
                flow(3, ServiceClass.BE, 1_008, 2_000, 0));
        Map<Long, Long> g = LinkClassTree.guaranteed(flows);
        assertEquals(8L, g.get(3L));
        // owed 3,000 + 1,000; found 1,000: a quarter of each need
        assertEquals(10_750L, g.get(1L));
        assertEquals(10_250L, g.get(2L));
        assertTrue(g.values().stream().allMatch(r -> r >= LinkClassTree.LEAST_RATE));
    }
}
