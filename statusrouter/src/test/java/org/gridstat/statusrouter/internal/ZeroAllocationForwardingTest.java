package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Under epoll a router forwards without allocating per event once warm: its threads' allocation
 * (HotSpot's per-thread counter) over tens of thousands of events stays below a byte per event
 * (in one of up to three windows: see {@link #assertAllocatesNothingPerEvent}).
 * With two event loops, sixteen publishers: the kernel spreads senders over the loops' sockets
 * by address, so some of them reach the other loop and cross the hand-off rings to the data path
 * (all sixteen landing on the data-path loop would happen once in 65,536 runs; the test checks it did not). Netty's sampled leak detection, which the launcher turns off, is off here too.
 */
class ZeroAllocationForwardingTest {
    private static final int EVENTS = 40_000;

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aWarmRouterAllocatesNothingPerEvent(int loops) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        String node = "zeroalloc" + loops;
        // A sink nobody reads: once its buffer is full the kernel drops quietly, without an ICMP error.
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            String[] routes = {"1 -> 127.0.0.1:" + ((InetSocketAddress) sink.getLocalAddress()).getPort()};
            try (DataPlane plane = DataPlane.start(RouterSettings.of(node, "127.0.0.1:0", loops, "epoll", 1 << 20, routes))) {
                List<Publisher> publishers = new ArrayList<>();
                List<Publication> p = new ArrayList<>();
                for (int i = 0; i < (loops == 1 ? 1 : 16); i++) {
                    publishers.add(Publisher.connect(plane.localAddress()));
                    p.add(publishers.get(i).publication(VariableId.of(1), ServiceClass.BE, null));
                }
                publish(p, plane, EVENTS); // warm-up: the forwarding path gets compiled
                assertAllocatesNothingPerEvent(() -> {
                    long receivedBefore = plane.counters().received();
                    long forwardedBefore = plane.counters().forwarded();
                    long bytesBefore = allocatedBy("gridstat-" + node);
                    publish(p, plane, EVENTS);
                    long bytes = allocatedBy("gridstat-" + node) - bytesBefore;
                    long received = plane.counters().received() - receivedBefore;
                    long forwarded = plane.counters().forwarded() - forwardedBefore;
                    assertTrue(received > EVENTS * 9L / 10, "most events arrived: " + received);
                    assertEquals(received, forwarded, "every event received was forwarded");
                    return new Window(bytes, received);
                });
                if (loops > 1) {
                    assertTrue(plane.handedOffFrames() > 0, "frames crossed the hand-off rings");
                }
                for (Publisher pub : publishers) {
                    pub.close();
                }
            }
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /**
     * A link offered about three times its capacity (1 MB/s, one 56-byte frame per 56 µs) paces
     * every departure: the periodic pacing tick, not a timer task per departure, wakes it.
     */
    @Test
    void aSaturatedPacedLinkAllocatesNothingPerEventSent() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) sink.getLocalAddress()).getPort();
            RouterSettings settings = RouterSettings.of("zeroallocpaced", "127.0.0.1:0", 1, "epoll", 1 << 20,
                    new String[] {"name=s address=127.0.0.1:" + port + " capacity=1000000"},
                    new String[] {"id=1 variable=1 link=s class=BE"}, new String[0], 1_000_000_000L, 0.5, 16);
            try (DataPlane plane = DataPlane.start(settings);
                 Publisher pub = Publisher.connect(plane.localAddress())) {
                List<Publication> p = List.of(pub.publication(VariableId.of(1), ServiceClass.BE, null));
                publish(p, plane, EVENTS);
                assertAllocatesNothingPerEvent(() -> {
                    long forwardedBefore = plane.counters().forwarded();
                    long overflowBefore = plane.counters().links().get("s").flow(1).queue().overflowDrops();
                    long bytesBefore = allocatedBy("gridstat-zeroallocpaced");
                    publish(p, plane, EVENTS);
                    long bytes = allocatedBy("gridstat-zeroallocpaced") - bytesBefore;
                    long sent = plane.counters().forwarded() - forwardedBefore;
                    long overflow = plane.counters().links().get("s").flow(1).queue().overflowDrops() - overflowBefore;
                    assertTrue(overflow > sent / 2, "the link was saturated: " + sent + " sent, " + overflow + " overflowed");
                    return new Window(bytes, sent);
                });
            }
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /**
     * The mixed path: HRT and LRT events with deadlines (EDF), best effort, rate-filtered flows and
     * multicast over two out-links, all on the measured path (and once with congestion control on,
     * whose policy runs every estimator period on both links). Batched: the publisher sends the twelve
     * variables' samples as one batch, and the links pack what each cycle releases (link b into
     * loopback-sized datagrams).
     */
    @ParameterizedTest(name = "batched {0}, congestion control {1}")
    @CsvSource({"false, false", "true, false", "false, true"})
    void theMixedPathAllocatesNothingPerEvent(boolean batched, boolean congestionControl) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (DatagramChannel sinkA = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel sinkB = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            ServiceClass[] classes = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};
            List<String> flows = new ArrayList<>();
            int id = 1;
            for (int v = 1; v <= 12; v++) {
                ServiceClass c = classes[(v - 1) / 4];
                String deadline = c == ServiceClass.BE ? "" : " budget=2ms";
                flows.add("id=" + id++ + " variable=" + v + " link=a class=" + c + " buffer=64" + deadline);
                if (v % 2 == 1) { // multicast, filtered to 20 and 50 Hz on the second link
                    flows.add("id=" + id++ + " variable=" + v + " link=b class=" + c + " buffer=64 rates=20,50 publisher=5000"
                            + deadline);
                }
            }
            RouterSettings settings = RouterSettings.of("zeroallocmixed", "127.0.0.1:0", 1, "epoll", 1 << 20,
                    new String[] {"name=a address=127.0.0.1:" + ((InetSocketAddress) sinkA.getLocalAddress()).getPort(),
                        "name=b address=127.0.0.1:" + ((InetSocketAddress) sinkB.getLocalAddress()).getPort()
                            + (batched ? " mtu=65507" : "")},
                    flows.toArray(new String[0]), new String[0], 1_000_000_000L, 0.5, 64)
                    .withCongestionControl(congestionControl ? "on" : "off", new LocalCongestionControl());
            try (DataPlane plane = DataPlane.start(settings);
                 Publisher pub = Publisher.connect(plane.localAddress())) {
                List<Publication> p = new ArrayList<>();
                for (int v = 1; v <= 12; v++) {
                    ServiceClass c = classes[(v - 1) / 4];
                    p.add(pub.publication(VariableId.of(v), c, c == ServiceClass.BE ? null : java.time.Duration.ofSeconds(1)));
                }
                Publishing publishing = batched ? (n -> publishTogether(pub, p, plane, n)) : (n -> publish(p, plane, n));
                publishing.publish(EVENTS);
                assertAllocatesNothingPerEvent(() -> {
                    RouterCounters before = plane.counters();
                    long bytesBefore = allocatedBy("gridstat-zeroallocmixed");
                    publishing.publish(EVENTS);
                    long bytes = allocatedBy("gridstat-zeroallocmixed") - bytesBefore;
                    RouterCounters after = plane.counters();
                    if (batched) {
                        long batches = after.batchesReceived() - before.batchesReceived();
                        long copies = after.forwarded() - before.forwarded();
                        long datagrams = after.datagramsSent() - before.datagramsSent();
                        assertTrue(batches >= EVENTS / 12 * 9 / 10, "the events came in batches: " + batches);
                        assertTrue(datagrams < copies / 2, "and left packed: " + copies + " copies in " + datagrams + " datagrams");
                    }
                    long received = after.received() - before.received();
                    assertTrue(received > EVENTS * 9L / 10, "most events arrived: " + received);
                    assertTrue(after.engine().filtered() - before.engine().filtered() > received / 4,
                            "the rate filters ran: " + after);
                    assertTrue(after.links().get("b").flow(2).queue().departures() > before.links().get("b").flow(2).queue().departures(),
                            "multicast copies left on link b: " + after);
                    return new Window(bytes, received);
                });
            }
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    /**
     * UDP offload both ways: batches arrive as segmented sends (ten datagrams of five events each),
     * which the data port reads as coalesced buffers and splits, and the link sends its runs of full
     * batches segmented, through messages it reuses.
     */
    @Test
    void segmentedSendsInAndOutAllocateNothingPerEvent() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        Assumptions.assumeTrue(EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP_SEGMENT");
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) sink.getLocalAddress()).getPort();
            RouterSettings settings = RouterSettings.of("zeroallocgso", "127.0.0.1:0", 1, "epoll", 4 << 20,
                    new String[] {"name=s address=127.0.0.1:" + port + " capacity=1250000000"},
                    new String[] {"id=1 variable=1 link=s buffer=1000"}, new String[0], 1_000_000_000L, 0.5, 16);
            try (DataPlane plane = DataPlane.start(settings)) {
                Channel sender = new Bootstrap().group(group).channel(EpollDatagramChannel.class)
                        .handler(new ChannelInboundHandlerAdapter())
                        .connect(plane.localAddress()).syncUninterruptibly().channel();
                SegmentedBatches batches = new SegmentedBatches(sender);
                batches.send(plane, EVENTS);
                assertAllocatesNothingPerEvent(() -> {
                    long coalescedBefore = plane.coalescedBuffers();
                    long segmentedBefore = plane.segmentedSends();
                    long receivedBefore = plane.counters().received();
                    long forwardedBefore = plane.counters().forwarded();
                    long bytesBefore = allocatedBy("gridstat-zeroallocgso");
                    batches.send(plane, EVENTS);
                    long bytes = allocatedBy("gridstat-zeroallocgso") - bytesBefore;
                    long received = plane.counters().received() - receivedBefore;
                    assertTrue(received > EVENTS * 9L / 10, "most events arrived: " + received);
                    assertEquals(received, plane.counters().forwarded() - forwardedBefore, "every event received was forwarded");
                    assertTrue(plane.coalescedBuffers() - coalescedBefore > EVENTS / 50 * 9 / 10, "read coalesced");
                    assertTrue(plane.segmentedSends() > segmentedBefore, "sent segmented");
                    return new Window(bytes, received);
                });
                sender.close().syncUninterruptibly();
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            ResourceLeakDetector.setLevel(level);
        }
    }

    /** Sends events of variable 1 as segmented sends of ten five-event batches, the sender's garbage its own. */
    private static final class SegmentedBatches {
        private final Channel channel;
        private final BatchHeaderWriter header = new BatchHeaderWriter();
        private final StatusEventEncoder encoder = new StatusEventEncoder();
        private final ByteBuffer scratch = ByteBuffer.allocate(2048);
        private long sequence;

        SegmentedBatches(Channel channel) {
            this.channel = channel;
        }

        void send(DataPlane plane, int n) throws Exception {
            long start = plane.counters().received();
            for (int sent = 0; sent < n; sent += 50) {
                ByteBuf all = PooledByteBufAllocator.DEFAULT.directBuffer(10 * 1322);
                for (int d = 0; d < 10; d++) {
                    int[] lengths = {260, 260, 260, 260, 260};
                    int at = header.write(scratch, 0, lengths, 5);
                    long now = SystemClock.INSTANCE.nanos();
                    for (int i = 0; i < 5; i++) {
                        at += encoder.wrap(scratch, at).variableId(1)
                                .sequence(sequence++).sourceTimeNanos(now).deadlineNanos(now + 10_000_000_000L)
                                .serviceClass(ServiceClass.BE).rawPayloadLength(212).seal();
                    }
                    all.writeBytes(scratch.array(), 0, at);
                }
                channel.writeAndFlush(new SegmentedDatagramPacket(all, 1322, null, (InetSocketAddress) channel.localAddress()),
                        channel.voidPromise());
                if (sent % 400 == 350) {
                    Thread.sleep(1); // keep the router's socket buffer from overflowing
                }
            }
            awaitReceived(plane, start, n);
        }
    }

    /** What the router's threads allocated over one measured window of {@code events} events. */
    private record Window(long bytes, long events) {
        double perEvent() {
            return (double) bytes / events;
        }

        @Override
        public String toString() {
            return String.format("%d bytes for %d events: %.2f B/event", bytes, events, perEvent());
        }
    }

    private interface Measurement {
        Window measure() throws Exception;
    }

    /**
     * Less than a byte per event in one of up to three windows. A one-time cost, such as a class
     * that a rarely taken path loads or the allocator trimming its thread cache, lands in one
     * window; an allocation per event lands in every one.
     */
    private static void assertAllocatesNothingPerEvent(Measurement measurement) throws Exception {
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Window w = measurement.measure();
            if (w.perEvent() < 1.0) {
                return;
            }
            windows.add(w);
        }
        fail("every window allocated: " + windows);
    }

    private interface Publishing {
        void publish(int n) throws Exception;
    }

    /** Publishes {@code n} events, one sample of every publication per batch, then waits as {@link #publish} does. */
    private static void publishTogether(Publisher pub, List<Publication> p, DataPlane plane, int n) throws Exception {
        long start = plane.counters().received();
        for (int i = 0; i < n; i += p.size()) {
            long t = SystemClock.INSTANCE.nanos();
            int first = i;
            pub.publishTogether(() -> {
                for (int k = 0; k < p.size() && first + k < n; k++) {
                    p.get(k).publish(first + k, t);
                }
            });
            if (i % 384 == 372) {
                Thread.sleep(1); // keep the router's socket buffer from overflowing
            }
        }
        awaitReceived(plane, start, n);
    }

    /** Publishes {@code n} events and waits until the router has read them all (or stopped receiving) and forwarded what it read. */
    private static void publish(List<Publication> p, DataPlane plane, int n) throws Exception {
        long start = plane.counters().received();
        for (int i = 0; i < n; i++) {
            p.get(i % p.size()).publish(i, SystemClock.INSTANCE.nanos());
            if (i % 64 == 63) {
                Thread.sleep(1); // keep the router's socket buffer from overflowing
            }
        }
        awaitReceived(plane, start, n);
    }

    private static void awaitReceived(DataPlane plane, long start, int n) throws Exception {
        long last = -1;
        long now;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((now = plane.counters().received()) != last && now - start < n && System.nanoTime() < deadline) {
            last = now;
            Thread.sleep(50);
        }
        // Frames another loop read wait in its hand-off ring until the data path forwards them: a
        // window that ended before they were would count them forwarded in the next one. Forwarding
        // has ended once its count stands still (a copy per route and link, not one per frame).
        long forwarded = -1;
        long f;
        while ((f = plane.counters().forwarded()) != forwarded && System.nanoTime() < deadline) {
            forwarded = f;
            Thread.sleep(20);
        }
    }

    private static long allocatedBy(String threadNamePrefix) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(threadNamePrefix)) {
                sum += mx.getThreadAllocatedBytes(t.getId());
            }
        }
        return sum;
    }
}
