package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.junit.jupiter.api.Test;

/**
 * The rates a link's leaves are guaranteed: an HRT flow's shortfall taken from what best effort,
 * then LRT, can spare above their minimum rates; and the packets a leaf may hold.
 */
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

    private static KernelFlow victim(long id, ServiceClass c, long assured, long minimum, long heldRate) {
        return new KernelFlow(id, 100 + id, c, assured, 2 * assured, 0, 288, minimum, heldRate, KernelFlow.NO_DEADLINE);
    }

    private static KernelFlow shortHrt(long id, long assured, long shortfall) {
        return new KernelFlow(id, 100 + id, ServiceClass.HRT, assured, 4 * assured, shortfall, 288, assured, 0, 45);
    }

    @Test
    void aVictimKeepsItsMinimumRateOrWhatItsHoldLetsThroughIfLess() {
        List<KernelFlow> flows = List.of(shortHrt(1, 15_000, 5_000),
                victim(2, ServiceClass.BE, 2_000, 662, 0), // no hold: keeps its minimum
                victim(3, ServiceClass.BE, 2_000, 662, 576), // held to 2 Hz: keeps 576 and a tenth (634)
                victim(4, ServiceClass.LRT, 2_880, 2_880, 0), // lent down to its minimum already: keeps it
                victim(5, ServiceClass.LRT, 5_760, 2_880, 2_592)); // held to 9 Hz: keeps 2,852
        Map<Long, Long> g = LinkClassTree.guaranteed(flows);
        assertEquals(662L, g.get(2L));
        assertEquals(634L, g.get(3L));
        assertEquals(2_880L, g.get(4L));
        // best effort gave 1,338 + 1,366 = 2,704; LRT the remaining 2,296 of flow 5's 2,908
        assertEquals(5_760L - 2_296, g.get(5L));
        assertEquals(20_000L, g.get(1L), "the HRT flow gets all it lacked");
    }

    @Test
    void whenTheVictimsAreAtTheirMinimumRatesTheHrtFlowGetsOnlyWhatIsAboveThem() {
        List<KernelFlow> flows = List.of(shortHrt(1, 15_000, 5_000), victim(2, ServiceClass.BE, 662, 662, 0),
                victim(3, ServiceClass.LRT, 3_880, 2_880, 0));
        Map<Long, Long> g = LinkClassTree.guaranteed(flows);
        assertEquals(662L, g.get(2L), "not a byte below its minimum rate");
        assertEquals(2_880L, g.get(3L));
        assertEquals(16_000L, g.get(1L), "a fifth of its shortfall: all there was above the minimum rates");
    }

    @Test
    void aLeafHoldsWhatLeavesAtItsRateWithinItsEventsSlack() {
        // 17,280 B/s of 288-byte events is 60 a second: 45 ms of slack lets 2.7 of them leave
        KernelFlow hrt = new KernelFlow(1, 101, ServiceClass.HRT, 17_280, 69_120, 0, 288, 17_280, 0, 45);
        assertEquals(2, LinkClassTree.queueOf(hrt, 17_280, 20));
        assertEquals(8, LinkClassTree.queueOf(hrt, 3 * 17_280, 20), "a guaranteed rate three times higher: 8.1");
        KernelFlow lrt = new KernelFlow(2, 102, ServiceClass.LRT, 5_760, 11_520, 0, 288, 2_880, 0, 96);
        assertEquals(2, LinkClassTree.queueOf(lrt, 2_880, 20), "never fewer than two (0.96 here)");
        KernelFlow slackForSeconds = new KernelFlow(3, 103, ServiceClass.LRT, 5_760, 11_520, 0, 288, 2_880, 0, 5_000);
        assertEquals(20, LinkClassTree.queueOf(slackForSeconds, 5_760, 20), "never more than the link's queue");
        assertEquals(20, LinkClassTree.queueOf(victim(4, ServiceClass.BE, 5_760, 662, 0), 5_760, 20),
                "no deadline: the link's queue");
        KernelFlow unknownSize = new KernelFlow(5, 105, ServiceClass.HRT, 17_280, 69_120, 0, 0, 17_280, 0, 45);
        assertEquals(20, LinkClassTree.queueOf(unknownSize, 17_280, 20), "no packet seen yet: the link's queue");
        assertEquals(1, LinkClassTree.queueOf(hrt, 17_280, 1), "a link configured for one packet a leaf keeps one");
    }
}
