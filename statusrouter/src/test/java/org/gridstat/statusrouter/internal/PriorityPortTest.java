package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.epoll.Epoll;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.time.SystemClock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** HRT and LRT frames kept out of the data port's queue: a priority port, read first, and out-links that use the next hop's. */
class PriorityPortTest {
    private static final long BE_VARIABLE = 1;
    private static final long HRT_VARIABLE = 2;
    private static final int BACKLOG = 500;

    /**
     * The data-path loop is held while 500 BE frames queue at the data port and then one HRT frame
     * arrives. Once the loop runs again, with a priority port the HRT frame leaves first; sharing
     * the data port, it waits until the BE frames before it were read, a batch of 64 at a time.
     */
    @ParameterizedTest(name = "priority port {0}")
    @ValueSource(booleans = {true, false})
    void hrtQueuedBehindABestEffortBacklogLeavesFirstOnlyThroughThePriorityPort(boolean priorityPort) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport: the priority port is read first under epoll");
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            sink.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20); // the whole backlog fits
            RouterSettings s = RouterSettings.of("prio", "127.0.0.1:0", 1, "epoll", 1 << 20,
                    new String[] {"name=s address=127.0.0.1:" + port(sink)},
                    new String[] {"id=1 variable=" + BE_VARIABLE + " link=s class=BE buffer=1024",
                        "id=2 variable=" + HRT_VARIABLE + " link=s class=HRT buffer=16"},
                    new String[0], 1_000_000_000L, 0.5, 16).withPriorityPort(priorityPort ? "127.0.0.1:0" : null);
            try (DataPlane plane = DataPlane.start(s);
                 Publisher pub = Publisher.connect(plane.localAddress(), plane.priorityAddress())) {
                assertEquals(priorityPort, plane.priorityAddress() != null);
                Publication be = pub.publication(VariableId.of(BE_VARIABLE), ServiceClass.BE, null);
                Publication hrt = pub.publication(VariableId.of(HRT_VARIABLE), ServiceClass.HRT, Duration.ofSeconds(1));
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                plane.executeOnDataPath(() -> {
                    held.countDown();
                    awaitQuietly(release);
                });
                assertTrue(held.await(5, TimeUnit.SECONDS));
                for (int i = 0; i < BACKLOG; i++) {
                    be.publish(i, SystemClock.INSTANCE.nanos());
                }
                hrt.publish(0, SystemClock.INSTANCE.nanos());
                Thread.sleep(200); // loopback delivers to the router's socket queues; the loop is still held
                release.countDown();
                List<Long> order = receive(sink, BACKLOG + 1);
                assertEquals(BACKLOG + 1, order.size(), "everything arrived");
                int hrtAt = order.indexOf(HRT_VARIABLE);
                if (priorityPort) {
                    assertEquals(0, hrtAt, "the HRT frame left first");
                } else {
                    assertTrue(hrtAt >= BACKLOG - 64, "sharing the data port, the HRT frame waited for the backlog: at " + hrtAt);
                }
            }
        }
    }

    @Test
    void anOutLinkSendsHrtAndLrtToTheNeighboursPriorityPortAndBestEffortToItsDataPort() throws Exception {
        try (DatagramChannel data = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel priority = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            RouterSettings s = RouterSettings.of("prio2", "127.0.0.1:0", 1, "auto", 1 << 20,
                    new String[] {"name=n address=127.0.0.1:" + port(data) + " priority=127.0.0.1:" + port(priority)},
                    new String[] {"id=1 variable=1 link=n class=BE", "id=2 variable=2 link=n class=HRT",
                        "id=3 variable=3 link=n class=LRT"},
                    new String[0], 1_000_000_000L, 0.5, 16);
            try (DataPlane plane = DataPlane.start(s);
                 Publisher pub = Publisher.connect(plane.localAddress())) {
                ServiceClass[] classes = {ServiceClass.BE, ServiceClass.HRT, ServiceClass.LRT};
                for (int v = 1; v <= 3; v++) {
                    Publication p = pub.publication(VariableId.of(v), classes[v - 1], Duration.ofSeconds(1));
                    for (int i = 0; i < 10; i++) {
                        p.publish(i, SystemClock.INSTANCE.nanos());
                    }
                }
                List<Long> onData = receive(data, 10);
                List<Long> onPriority = receive(priority, 20);
                assertEquals(List.of(1L), onData.stream().distinct().toList(), "best effort on the data port");
                assertEquals(10, onData.size());
                assertEquals(20, onPriority.size());
                assertEquals(10, onPriority.stream().filter(v -> v == 2L).count(), "HRT on the priority port");
                assertEquals(10, onPriority.stream().filter(v -> v == 3L).count(), "LRT on the priority port");
            }
        }
    }

    @Test
    void aPriorityPortThatIsTheDataPortOrNoAddressIsRefused() {
        RouterSettings s = RouterSettings.of("prio3", "127.0.0.1:9470", 1, "auto", 1 << 20, new String[0]);
        IllegalArgumentException same = assertThrows(IllegalArgumentException.class, () -> s.withPriorityPort("127.0.0.1:9470"));
        assertTrue(same.getMessage().contains("priority.bind"), same.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> s.withPriorityPort("nowhere"));
        assertTrue(bad.getMessage().contains("priority.bind"), bad.getMessage());
        assertNull(s.withPriorityPort("").priorityBind, "blank: none");
    }

    private static int port(DatagramChannel ch) throws Exception {
        return ((InetSocketAddress) ch.getLocalAddress()).getPort();
    }

    /** Variable ids of up to {@code n} events, in arrival order (a batch's in its order); stops after 5 s without one. */
    private static List<Long> receive(DatagramChannel ch, int n) throws Exception {
        List<Long> ids = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(65_536);
        ch.configureBlocking(false);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (ids.size() < n && System.nanoTime() < deadline) {
            buf.clear();
            if (ch.receive(buf) == null) {
                Thread.onSpinWait();
                continue;
            }
            buf.flip();
            SentEvents.of(buf).forEach(e -> ids.add(e.variable()));
            deadline = System.nanoTime() + 5_000_000_000L;
        }
        return ids;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
