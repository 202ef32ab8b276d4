package org.gridstat.htb.mirror;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.htb.ClassStatistics;
import org.gridstat.htb.Htb;
import org.gridstat.htb.netns.VethLink;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A link's class tree on a veth pair: the levels, the class nodes held to their leaves, the filters' steering. */
class LinkClassTreeTest {
    private VethLink veth;
    private Htb htb;
    private LinkClassTree tree;

    @BeforeEach
    void build() throws Exception {
        String why = VethLink.whyNot();
        assumeTrue(why == null, "network namespaces: " + why);
        htb = Htb.open();
        veth = VethLink.create("gsr2", "10.77.32.1/24", "10.77.32.2/24");
        tree = LinkClassTree.build(htb, new KernelLinkPlan("r", "far", veth.hostDevice(),
                new InetSocketAddress(veth.farAddress(), 9000), null, LinkSpec.ofPercent(100_000, 40, 30, 30, 0), 20));
    }

    @AfterEach
    void remove() {
        if (tree != null) {
            tree.close();
        }
        if (veth != null) {
            veth.close();
        }
        if (htb != null) {
            htb.close();
        }
    }

    private ClassStatistics node(int minor) throws Exception {
        return htb.classes(veth.hostDevice()).stream().filter(c -> c.minor() == minor).findFirst().orElse(null);
    }

    @Test
    void eachClassNodeIsHeldToItsLeavesAndBorrowsUpToTheLink() throws Exception {
        assertEquals(LinkClassTree.LEAST_RATE, node(LinkClassTree.HRT).rateBytesPerSecond(), "no flows yet");
        assertEquals(100_000, node(LinkClassTree.HRT).ceilBytesPerSecond());
        assertEquals(100_000, node(LinkClassTree.LINK).rateBytesPerSecond());
        // 262 B on the wire: scaled by (262 + 14) / 262 for the Ethernet header
        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 26_200, 50_000, 0, 262),
                new KernelFlow(2, 8, ServiceClass.HRT, 13_100, 50_000, 0, 262),
                new KernelFlow(3, 9, ServiceClass.BE, 5_240, 10_000, 0, 262)));
        assertEquals(27_600, node(LinkClassTree.FIRST_FLOW + 1).rateBytesPerSecond());
        assertEquals(13_800, node(LinkClassTree.FIRST_FLOW + 2).rateBytesPerSecond());
        assertEquals(27_600 + 13_800, node(LinkClassTree.HRT).rateBytesPerSecond(), "the HRT node: its leaves' sum");
        assertEquals(5_520, node(LinkClassTree.BEST_EFFORT).rateBytesPerSecond());
        assertEquals(LinkClassTree.LEAST_RATE, node(LinkClassTree.LRT).rateBytesPerSecond());
        assertEquals(105_344, node(LinkClassTree.LINK).rateBytesPerSecond(), "the link scaled alike (276/262)");

        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 26_200, 50_000, 0, 262)));
        assertNull(node(LinkClassTree.FIRST_FLOW + 2), "flow 2's leaf removed");
        assertEquals(27_600, node(LinkClassTree.HRT).rateBytesPerSecond());
        assertEquals(LinkClassTree.LEAST_RATE, node(LinkClassTree.BEST_EFFORT).rateBytesPerSecond());
    }

    @Test
    void aFlowsFilterSteersItsVariablesStatusEventsToItsLeafAndNothingElse() throws Exception {
        long variable = 0x8000_0000_0000_0007L; // the top bit set: compared as the unsigned id it is
        tree.apply(List.of(new KernelFlow(1, variable, ServiceClass.HRT, 20_000, 50_000, 0, 0)));
        ByteBuffer frame = ByteBuffer.allocate(WireFormat.HEADER_LENGTH + 8);
        frame.putShort(0, (short) 0x4753).put(WireFormat.VERSION_OFFSET, (byte) WireFormat.VERSION)
                .put(WireFormat.FRAME_TYPE_OFFSET, (byte) WireFormat.FRAME_TYPE_STATUS_EVENT)
                .putLong(WireFormat.VARIABLE_ID_OFFSET, variable);
        InetSocketAddress far = new InetSocketAddress(veth.farAddress(), 9000); // nothing listens: the kernel counts it all the same
        try (DatagramChannel ch = DatagramChannel.open()) {
            for (int i = 0; i < 5; i++) {
                ch.send(frame.clear(), far);
            }
            frame.putLong(WireFormat.VARIABLE_ID_OFFSET, 7); // another variable
            ch.send(frame.clear(), far);
            frame.putLong(WireFormat.VARIABLE_ID_OFFSET, variable).put(WireFormat.FRAME_TYPE_OFFSET,
                    (byte) WireFormat.FRAME_TYPE_BATCH); // a batch: not a status event's header
            ch.send(frame.clear(), far);
        }
        assertEquals(5, node(LinkClassTree.FIRST_FLOW + 1).packets(), "the flow's five");
        assertTrue(node(LinkClassTree.UNCLASSIFIED).packets() >= 2, "the other variable and the batch went unclassified");
    }

    @Test
    void aLeafWithDeadlinesHoldsWhatLeavesWithinItsSlackAndTheLimitFollowsTheRate() throws Exception {
        // 288-byte events, 45 ms of slack: 17,280 B/s lets 2.7 leave (2 held), 51,840 B/s 8.1 (8)
        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 17_280, 69_120, 0, 288, 17_280, 0, 45),
                new KernelFlow(2, 8, ServiceClass.BE, 5_760, 11_520, 0, 288, 662, 0, KernelFlow.NO_DEADLINE)));
        assertEquals(2, leafLimit(LinkClassTree.FIRST_FLOW + 1));
        assertEquals(20, leafLimit(LinkClassTree.FIRST_FLOW + 2), "no deadlines: the link's queue");
        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 51_840, 69_120, 0, 288, 51_840, 0, 45),
                new KernelFlow(2, 8, ServiceClass.BE, 5_760, 11_520, 0, 288, 662, 0, KernelFlow.NO_DEADLINE)));
        assertEquals(8, leafLimit(LinkClassTree.FIRST_FLOW + 1), "changed in place");
        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 17_280, 69_120, 0, 288, 17_280, 0, 45),
                new KernelFlow(2, 8, ServiceClass.BE, 5_760, 11_520, 0, 288, 662, 0, KernelFlow.NO_DEADLINE)));
        assertEquals(2, leafLimit(LinkClassTree.FIRST_FLOW + 1), "and back");
        // short by 8,640 B/s, all of it found in best effort's 10,858 above its minimum rate
        tree.apply(List.of(new KernelFlow(1, 7, ServiceClass.HRT, 17_280, 69_120, 8_640, 288, 17_280, 0, 45),
                new KernelFlow(2, 8, ServiceClass.BE, 11_520, 23_040, 0, 288, 662, 0, KernelFlow.NO_DEADLINE)));
        assertEquals(4, leafLimit(LinkClassTree.FIRST_FLOW + 1),
                "sized at the 25,920 B/s the tree guarantees the short flow (4.05), not its assured 17,280 (2.7)");
    }

    /** The packet limit of the pfifo under leaf {@code 1:minor}, as tc shows it. */
    private int leafLimit(int minor) throws Exception {
        Process p = new ProcessBuilder("tc", "qdisc", "show", "dev", veth.hostDevice()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        String parent = "parent 1:" + Integer.toHexString(minor) + " ";
        for (String line : out.split("\n")) {
            if (line.startsWith("qdisc pfifo") && line.contains(parent)) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("limit (\\d+)p").matcher(line);
                assertTrue(m.find(), line);
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no pfifo under 1:" + Integer.toHexString(minor) + " in\n" + out);
    }
}
