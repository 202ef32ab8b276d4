package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The class tree a router asks for is the one the kernel holds: a link class, three class nodes of
 * prios 0, 1, 2, flow leaves under them and a default leaf, as tc shows them and as classes() reads
 * them.
 */
class ClassTreeTest extends VethPairTest {

    /** A class as configured: minor, parent minor, rates; leaf as it ends up. */
    private record Configured(int minor, int parent, boolean leaf, ClassRates rates) {
    }

    ClassTreeTest() {
        super("gsh1", 1);
    }

    @Test
    void theClassTreeAppearsAsConfigured() throws Exception {
        List<Configured> tree = List.of(
                new Configured(LINK, 0, false, rates(10_000_000, 10_000_000, 0)),
                new Configured(0x10, LINK, false, rates(4_000_000, 10_000_000, 0)),
                new Configured(0x20, LINK, false, rates(3_000_000, 10_000_000, 1)),
                new Configured(0x30, LINK, false, rates(2_000_000, 10_000_000, 2)),
                new Configured(0x101, 0x10, true, rates(200_000, 200_000, 0)),
                new Configured(0x102, 0x10, true, rates(400_000, 800_000, 0)),
                new Configured(0x201, 0x20, true, rates(250_000, 250_000, 1)),
                new Configured(0x301, 0x30, true, rates(125_000, 250_000, 2)),
                new Configured(DEFAULT_LEAF, LINK, true, rates(100_000, 10_000_000, 7)));
        htb.createRoot(dev, DEFAULT_LEAF);
        for (Configured c : tree) {
            htb.addClass(dev, c.parent(), c.minor(), c.rates());
        }
        for (Configured c : tree) {
            if (c.leaf()) {
                htb.setLeafQueue(dev, c.minor(), 100);
            }
        }

        Map<Integer, TcClassShow> shown = TcClassShow.parse(KernelShaping.tc("-s", "class", "show", "dev", dev));
        Map<Integer, ClassStatistics> read = htb.classes(dev).stream()
                .collect(Collectors.toMap(ClassStatistics::minor, Function.identity(), (a, b) -> a,
                        LinkedHashMap::new));
        Map<Integer, Configured> configured = tree.stream().collect(Collectors.toMap(Configured::minor,
                Function.identity()));
        assertEquals(configured.keySet(), shown.keySet(), "classes tc shows");
        assertEquals(configured.keySet(), read.keySet(), "classes classes() reads");

        for (Configured c : tree) {
            String id = Htb.classId(c.minor());
            TcClassShow tc = shown.get(c.minor());
            assertEquals(c.parent(), tc.parentMinor(), id + "'s parent in tc");
            assertEquals(c.rates().rateBytesPerSecond(), tc.rate(), id + "'s rate in tc");
            assertEquals(c.rates().ceilBytesPerSecond(), tc.ceil(), id + "'s ceil in tc");
            if (c.leaf()) {
                assertEquals(c.rates().prio(), tc.prio(), id + "'s prio in tc");
            } else {
                assertNull(tc.prio(), id + ": tc shows prio on leaves only");
            }

            ClassStatistics s = read.get(c.minor());
            assertEquals(c.parent(), s.parentMinor(), id + "'s parent");
            assertEquals(c.leaf(), s.leaf(), id + " is a leaf");
            assertEquals(c.rates().rateBytesPerSecond(), s.rateBytesPerSecond(), id + "'s rate");
            assertEquals(c.rates().ceilBytesPerSecond(), s.ceilBytesPerSecond(), id + "'s ceil");
            assertEquals(c.rates().prio(), s.prio(), id + "'s prio");
        }
        assertEquals("htb", htb.rootQdiscKind(dev));
    }

    @Test
    void ratesAbove32BitsTravelAs64BitRates() throws Exception {
        htb.createRoot(dev, 0);
        long rate = 5_000_000_000L; // 40 Gbit/s
        long ceil = 6_000_000_000L;
        htb.addClass(dev, 0, 0x50, new ClassRates(rate, ceil, 100_000, 100_000, 3, 0));

        TcClassShow tc = TcClassShow.parse(KernelShaping.tc("-s", "class", "show", "dev", dev)).get(0x50);
        assertEquals(rate, tc.rate());
        assertEquals(ceil, tc.ceil());
        ClassStatistics read = htb.classes(dev).get(0);
        assertEquals(rate, read.rateBytesPerSecond());
        assertEquals(ceil, read.ceilBytesPerSecond());

        htb.changeClass(dev, 0, 0x50, new ClassRates(rate / 2, rate, 100_000, 100_000, 3, 0));
        assertEquals(rate / 2, htb.classes(dev).get(0).rateBytesPerSecond());
    }

    private static ClassRates rates(long rate, long ceil, int prio) {
        return new ClassRates(rate, ceil, 3_000, 3_000, prio, 0);
    }
}
