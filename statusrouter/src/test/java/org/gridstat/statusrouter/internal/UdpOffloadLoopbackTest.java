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
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A router on loopback fed batches as segmented sends, at its data port and its priority port: with
 * UDP offload each send to the data port arrives as one coalesced buffer, is split into its
 * datagrams and counted as them, and the router's own sends go segmented; the priority port, and
 * every port without offload, gets them cut apart by the kernel. Either
 * way the sink, which reads plainly, gets every event in order.
 */
class UdpOffloadLoopbackTest {
    private static final int FRAME = 260;
    private static final int PER_BATCH = 5;
    /** Datagrams per segmented send: nine full batches and a shorter one. */
    private static final int PER_SEND = 10;
    private static final int SENDS = 4;

    private long sequence;

    @ParameterizedTest(name = "udp offload {0}")
    @ValueSource(booleans = {true, false})
    void everyEventArrivesInOrderAndDatagramsCountAsDatagrams(boolean udpOffload) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        Assumptions.assumeTrue(EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP_SEGMENT");
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try (DatagramChannel sink = DatagramChannel.open()) {
            sink.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            sink.bind(new InetSocketAddress("127.0.0.1", 0));
            int sinkPort = ((InetSocketAddress) sink.getLocalAddress()).getPort();
            RouterSettings s = RouterSettings.of("offload", "127.0.0.1:0", 1, "epoll", 4 << 20,
                            new String[] {"name=sink address=127.0.0.1:" + sinkPort + " capacity=1250000000"},
                            new String[] {"id=1 variable=1 link=sink buffer=1000"}, new String[0], 1_000_000_000L, 0.5, 64)
                    .withPriorityPort("127.0.0.1:0")
                    .withUdpOffload(udpOffload);
            try (DataPlane plane = DataPlane.start(s)) {
                Channel toData = connect(group, plane.localAddress());
                Channel toPriority = connect(group, plane.priorityAddress());
                List<Long> got = new ArrayList<>();
                int sinkDatagrams = 0;
                int events = 0;
                for (int send = 0; send < SENDS; send++) {
                    Channel to = send % 2 == 0 ? toData : toPriority;
                    events += sendSegmented(to);
                    sinkDatagrams += receive(sink, got, events);
                }
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < events; i++) {
                    expected.add(i);
                }
                assertEquals(expected, got, () -> "every event, in order: " + plane.counters());
                RouterCounters c = plane.counters();
                assertEquals(events, c.received());
                assertEquals(SENDS * PER_SEND, c.batchesReceived(), "each datagram of a send counted as one");
                assertEquals(events, c.forwarded());
                assertEquals(0, c.droppedTotal());
                assertEquals(c.datagramsSent(), sinkDatagrams, "the sink got each datagram the router sent, cut apart");
                if (udpOffload) {
                    assertEquals(SENDS / 2, plane.coalescedBuffers(), "each segmented send to the data port read as"
                            + " one buffer; the priority port asks for no coalescing, and the kernel cut them apart");
                    assertTrue(plane.segmentedSends() > 0, "the router's runs went segmented");
                    assertTrue(plane.segmentedSends() < c.datagramsSent());
                } else {
                    assertEquals(0, plane.coalescedBuffers());
                    assertEquals(0, plane.segmentedSends());
                }
                toData.close().syncUninterruptibly();
                toPriority.close().syncUninterruptibly();
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static Channel connect(EventLoopGroup group, InetSocketAddress to) {
        return new Bootstrap().group(group).channel(EpollDatagramChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(to).syncUninterruptibly().channel();
    }

    /** One segmented send of nine batches of five events and one of three; returns the events sent. */
    private int sendSegmented(Channel to) {
        ByteBuf all = PooledByteBufAllocator.DEFAULT.directBuffer(PER_SEND * 1400);
        int segmentSize = 0;
        int events = 0;
        for (int d = 0; d < PER_SEND; d++) {
            int n = d < PER_SEND - 1 ? PER_BATCH : 3;
            int before = all.writerIndex();
            writeBatch(all, n);
            segmentSize = Math.max(segmentSize, all.writerIndex() - before);
            events += n;
        }
        to.writeAndFlush(new SegmentedDatagramPacket(all, segmentSize, null, (InetSocketAddress) to.localAddress()))
                .syncUninterruptibly();
        return events;
    }

    private void writeBatch(ByteBuf into, int n) {
        int[] lengths = new int[n];
        java.util.Arrays.fill(lengths, FRAME);
        ByteBuffer header = ByteBuffer.allocate(BatchHeaderWriter.headerLength(n));
        into.writeBytes(header.array(), 0, new BatchHeaderWriter().write(header, 0, lengths, n));
        ByteBuffer frame = ByteBuffer.allocate(FRAME);
        long now = SystemClock.INSTANCE.nanos();
        for (int i = 0; i < n; i++) {
            int length = new StatusEventEncoder().wrap(frame, 0).variableId(1).sequence(sequence++).sourceTimeNanos(now)
                    .deadlineNanos(now + 10_000_000_000L).serviceClass(ServiceClass.BE)
                    .rawPayloadLength(FRAME - WireFormat.HEADER_LENGTH).seal();
            into.writeBytes(frame.array(), 0, length);
        }
    }

    /** Reads the sink until it holds {@code total} events (10 s at most); returns the datagrams read. */
    private static int receive(DatagramChannel sink, List<Long> got, int total) throws Exception {
        sink.configureBlocking(false);
        ByteBuffer buf = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH + 1);
        DatagramReader reader = new DatagramReader();
        int datagrams = 0;
        long end = System.nanoTime() + 10_000_000_000L;
        while (got.size() < total && System.nanoTime() < end) {
            buf.clear();
            if (sink.receive(buf) == null) {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                continue;
            }
            datagrams++;
            assertEquals(RejectReason.NONE, reader.open(buf, 0, buf.position()), "the kernel cut the router's sends apart");
            while (reader.next()) {
                got.add(buf.getLong(reader.eventOffset() + WireFormat.SEQUENCE_OFFSET));
            }
        }
        return datagrams;
    }
}
