package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/**
 * A flow sent at twice its leaf's rate arrives at that rate, and at half of it within a second of
 * the leaf's rate being halved live: over a veth pair into a namespace, the receiver's socket opened
 * there.
 */
class LiveRateChangeTest extends VethPairTest {
    private static final int FLOW_LEAF = 0x101;
    private static final int FLOW_WORD = 0x4753_4854; // "GSHT"
    private static final int PORT = 4_000;
    private static final int PAYLOAD = 1_000;
    /** UDP, IPv4 and Ethernet headers: HTB counts whole frames, the receiver payloads. */
    private static final double PAYLOAD_SHARE = PAYLOAD / (PAYLOAD + 8.0 + 20 + 14);
    private static final long LEAF_RATE = 200_000;
    private static final double TOLERANCE = 0.20;

    LiveRateChangeTest() {
        super("gsh2", 2);
    }

    @Test
    void halvingTheLeafRateHalvesTheReceivedRateWithinASecond() throws Exception {
        baseTree();
        htb.addClass(dev, CLASS_NODE, FLOW_LEAF, leaf(LEAF_RATE));
        htb.setLeafQueue(dev, FLOW_LEAF, 50);
        htb.addFilter(dev, 1, FLOW_LEAF, U32Match.udp().destination((Inet4Address) link.farAddress())
                .destinationPort(PORT).payloadWord(0, FLOW_WORD, 0xFFFF_FFFF).build());

        InetSocketAddress to = new InetSocketAddress(link.farAddress(), PORT);
        try (CountingReceiver receiver = new CountingReceiver(link.farNamespace(), to);
                PacedSender sender = new PacedSender(new InetSocketAddress(link.hostAddress(), 0), to, FLOW_WORD,
                        PAYLOAD, 2 * LEAF_RATE)) {
            Thread.sleep(1_000); // the queue fills and the rate settles
            double before = rate(receiver, 2_000);
            double expected = LEAF_RATE * PAYLOAD_SHARE;
            assertTrue(Math.abs(before - expected) <= TOLERANCE * expected, String.format(
                    "at the leaf's %d B/s the flow arrived at %.0f B/s of payload, not %.0f", LEAF_RATE, before,
                    expected));

            htb.changeClass(dev, CLASS_NODE, FLOW_LEAF, leaf(LEAF_RATE / 2));
            double after = rate(receiver, 1_000);

            double half = before / 2;
            System.out.printf("payload received at %.0f B/s, then %.0f B/s in the second after the change%n", before,
                    after);
            assertTrue(Math.abs(after - half) <= TOLERANCE * half, String.format(
                    "in the second after halving the leaf's rate the flow arrived at %.0f B/s, not %.0f (half of %.0f)",
                    after, half, before));
            assertTrue(sender.bytesSent() > receiver.bytes(), "the sender kept the leaf saturated");
        }
        ClassStatistics leaf = htb.classes(dev).stream().filter(c -> c.minor() == FLOW_LEAF).findFirst().orElseThrow();
        assertEquals(LEAF_RATE / 2, leaf.rateBytesPerSecond());
        assertTrue(leaf.drops() > 0, "the leaf's queue overflowed (the flow was sent above its rate)");
    }

    /** Payload bytes per second received over the next window. */
    private static double rate(CountingReceiver receiver, long windowMillis) throws InterruptedException {
        long start = System.nanoTime();
        long bytes = receiver.bytes();
        Thread.sleep(windowMillis);
        long received = receiver.bytes() - bytes;
        return received * 1e9 / (System.nanoTime() - start);
    }

    private static ClassRates leaf(long rate) {
        return new ClassRates(rate, rate, 1_600, 1_600, 0, 0);
    }
}
