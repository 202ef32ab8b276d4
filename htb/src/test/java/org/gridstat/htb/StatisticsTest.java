package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** After traffic, the counters classes() reads are the ones tc prints. */
class StatisticsTest extends VethPairTest {
    private static final int FLOW_LEAF = 0x101;
    private static final int FLOW_WORD = 0x4753_5354;
    private static final int FLOW_PORT = 4_000;
    private static final int OTHER_PORT = 4_001;

    StatisticsTest() {
        super("gsh3", 3);
    }

    @Test
    void countersMatchTcs() throws Exception {
        baseTree();
        htb.addClass(dev, CLASS_NODE, FLOW_LEAF, new ClassRates(200_000, 200_000, 1_600, 1_600, 0, 0));
        htb.setLeafQueue(dev, FLOW_LEAF, 10); // a short queue: sent at twice its rate, the leaf drops
        htb.addFilter(dev, 1, FLOW_LEAF, U32Match.udp().destination((Inet4Address) link.farAddress())
                .destinationPort(FLOW_PORT).payloadWord(0, FLOW_WORD, 0xFFFF_FFFF).build());

        InetSocketAddress from = new InetSocketAddress(link.hostAddress(), 0);
        InetSocketAddress flow = new InetSocketAddress(link.farAddress(), FLOW_PORT);
        InetSocketAddress other = new InetSocketAddress(link.farAddress(), OTHER_PORT);
        try (CountingReceiver flowReceiver = new CountingReceiver(link.farNamespace(), flow);
                CountingReceiver otherReceiver = new CountingReceiver(link.farNamespace(), other);
                PacedSender flowSender = new PacedSender(from, flow, FLOW_WORD, 1_000, 400_000);
                PacedSender otherSender = new PacedSender(from, other, FLOW_WORD, 500, 50_000)) {
            Thread.sleep(1_500);
        }
        awaitEmptyQueues();

        for (int attempt = 0; attempt < 5; attempt++) {
            List<ClassStatistics> before = htb.classes(dev);
            Map<Integer, TcClassShow> shown = TcClassShow.parse(KernelShaping.tc("-s", "class", "show", "dev", dev));
            List<ClassStatistics> after = htb.classes(dev);
            if (!counters(before).equals(counters(after))) {
                continue; // a packet (ARP) went out between the reads: read again
            }
            assertEquals(shown.keySet(), Set.copyOf(after.stream().map(ClassStatistics::minor).toList()));
            for (ClassStatistics s : after) {
                String id = Htb.classId(s.minor());
                TcClassShow tc = shown.get(s.minor());
                assertEquals(tc.bytes(), s.bytes(), id + " bytes");
                assertEquals(tc.packets(), s.packets(), id + " packets");
                assertEquals(tc.drops(), s.drops(), id + " drops");
                assertEquals(tc.overlimits(), s.overlimits(), id + " overlimits");
                assertEquals(tc.lends(), s.lends(), id + " lends");
                assertEquals(tc.borrows(), s.borrows(), id + " borrows");
            }
            after.forEach(System.out::println);
            ClassStatistics leaf = find(after, FLOW_LEAF);
            assertTrue(leaf.packets() > 100 && leaf.drops() > 0, "the flow leaf sent and dropped: " + leaf);
            assertTrue(find(after, DEFAULT_LEAF).packets() > 50, "the other flow went to the default leaf");
            assertTrue(find(after, CLASS_NODE).packets() >= leaf.packets(), "an inner class counts its leaves'");
            return;
        }
        fail("the counters kept moving between reads");
    }

    private void awaitEmptyQueues() throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (htb.classes(dev).stream().anyMatch(c -> c.queuedPackets() > 0 || c.backlogBytes() > 0)) {
            if (System.nanoTime() > deadline) {
                fail("the queues did not drain in 10 s: " + htb.classes(dev));
            }
            Thread.sleep(50);
        }
    }

    private static List<List<Long>> counters(List<ClassStatistics> classes) {
        return classes.stream().map(c -> List.of((long) c.minor(), c.bytes(), c.packets(), c.drops(), c.overlimits(),
                c.lends(), c.borrows())).toList();
    }

    private static ClassStatistics find(List<ClassStatistics> classes, int minor) {
        return classes.stream().filter(c -> c.minor() == minor).findFirst().orElseThrow();
    }
}
