package org.gridstat.statusrouter.api;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.CongestionPolicy;
import org.gridstat.core.model.VariableId;
import org.gridstat.statusrouter.spi.CongestionControl;
import org.gridstat.statusrouter.spi.NoticeChannels;
import org.gridstat.statusrouter.spi.NoticeHost;
import org.junit.jupiter.api.Test;

/** A router started in process from its Config Admin properties forwards, and closing it frees its port. */
class EmbeddedRouterTest {
    @Test
    void forwardsAsConfiguredAndFreesItsPortWhenClosed() throws Exception {
        List<Long> got = new CopyOnWriteArrayList<>();
        InetSocketAddress port;
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            try (EmbeddedRouter router = EmbeddedRouter.start(Map.of("node.id", "e1", "data.bind", "127.0.0.1:0",
                    "warm.up.frames", 0,
                    "links", new String[] {"name=cc address=127.0.0.1:" + subscriber.localAddress().getPort()},
                    "flows", new String[] {"id=1 variable=7 link=cc class=HRT assured=20000"}));
                 Publisher publisher = Publisher.connect(router.dataAddress())) {
                port = router.dataAddress();
                assertEquals("e1", router.nodeId());
                assertEquals(List.of("cc"), router.outLinks());
                assertFiveDelivered(publisher, got, "");
            }
        }
        try (DatagramSocket again = new DatagramSocket(port)) {
            assertEquals(port.getPort(), again.getLocalPort(), "the data port is free once the router is closed");
        }
    }

    /** Congestion control that fails in the ways a provider can: its policy, its notice channels' opening or closing. */
    private static final class Faulty implements CongestionControl {
        final boolean noPolicy;
        final boolean openThrows;
        final boolean closeThrows;

        Faulty(boolean noPolicy, boolean openThrows, boolean closeThrows) {
            this.noPolicy = noPolicy;
            this.openThrows = openThrows;
            this.closeThrows = closeThrows;
        }

        @Override
        public CongestionPolicy newPolicy() {
            return noPolicy ? null : new BandwidthReassignment();
        }

        @Override
        public NoticeChannels openNotices(NoticeHost router) {
            if (openThrows) {
                throw new IllegalStateException("the notice channels broke");
            }
            return () -> {
                if (closeThrows) {
                    throw new IllegalStateException("the notice channels broke on close");
                }
            };
        }
    }

    @Test
    void aFaultyCongestionControlNeitherKeepsTheRouterFromForwardingNorHoldsItsPortWhenClosed() throws Exception {
        Faulty[] faults = {new Faulty(true, false, false), new Faulty(false, true, false), new Faulty(false, false, true)};
        boolean[] on = {false, true, true};
        for (int k = 0; k < faults.length; k++) {
            List<Long> got = new CopyOnWriteArrayList<>();
            InetSocketAddress port;
            try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
                try (EmbeddedRouter router = EmbeddedRouter.start(Map.of("node.id", "f" + k, "data.bind", "127.0.0.1:0",
                        "warm.up.frames", 0, "congestion.control", "on",
                        "links", new String[] {"name=cc address=127.0.0.1:" + subscriber.localAddress().getPort()},
                        "flows", new String[] {"id=1 variable=7 link=cc class=HRT assured=20000"}), faults[k]);
                     Publisher publisher = Publisher.connect(router.dataAddress())) {
                    port = router.dataAddress();
                    assertEquals(on[k], router.counters().congestionControl(), "fault " + k);
                    assertFiveDelivered(publisher, got, "fault " + k);
                }
            }
            try (DatagramSocket again = new DatagramSocket(port)) {
                assertEquals(port.getPort(), again.getLocalPort(), "fault " + k + ": the data port is free once closed");
            }
        }
    }

    @Test
    void refusesABadConfiguration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EmbeddedRouter.start(Map.of("node.id", "e2", "data.bind", "127.0.0.1:0", "congestion.control", "maybe")));
        assertTrue(e.getMessage().contains("congestion.control"), e.getMessage());
    }

    /** Five samples published to the router reach the subscriber, in order. */
    private static void assertFiveDelivered(Publisher publisher, List<Long> got, String what) throws InterruptedException {
        Publication p = publisher.publication(VariableId.of(7), ServiceClass.HRT, null);
        for (int i = 0; i < 5; i++) {
            p.publish(1.0);
        }
        long end = System.nanoTime() + 10_000_000_000L;
        while (got.size() < 5 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), got, what);
    }
}
