package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.unix.Errors;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Odd and hostile datagrams at a data port, with UDP offload and without: every datagram counted
 * once, every good event forwarded, every bad datagram dropped and counted, the same either way.
 */
class HostileOffloadInputTest {
    private long sequence;

    /** A batch of five events of {@code frame} bytes each. */
    private byte[] batch(int frame) {
        int n = 5;
        int[] lengths = new int[n];
        Arrays.fill(lengths, frame);
        ByteBuffer b = ByteBuffer.allocate(BatchHeaderWriter.headerLength(n) + n * frame);
        int at = new BatchHeaderWriter().write(b, 0, lengths, n);
        long now = SystemClock.INSTANCE.nanos();
        for (int i = 0; i < n; i++) {
            at += new StatusEventEncoder().wrap(b, at).variableId(1).sequence(sequence++).sourceTimeNanos(now)
                    .deadlineNanos(now + 10_000_000_000L).serviceClass(ServiceClass.BE)
                    .rawPayloadLength(frame - WireFormat.HEADER_LENGTH).seal();
        }
        return Arrays.copyOf(b.array(), at);
    }

    private static DataPlane plane(int sinkPort, boolean udpOffload) {
        return DataPlane.start(RouterSettings.of("hostile", "127.0.0.1:0", 1, "epoll", 8 << 20,
                        new String[] {"name=sink address=127.0.0.1:" + sinkPort + " capacity=1250000000"},
                        new String[] {"id=1 variable=1 link=sink buffer=60000"}, new String[0], 1_000_000_000L, 0.5, 64)
                .withUdpOffload(udpOffload));
    }

    private static void await(BooleanSupplier done, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out waiting for " + what);
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void segmented(Channel to, byte[] all, int segment) {
        to.writeAndFlush(new SegmentedDatagramPacket(Unpooled.copiedBuffer(all), segment, null,
                (InetSocketAddress) to.localAddress())).syncUninterruptibly();
    }

    private static Channel connect(EventLoopGroup g, InetSocketAddress to) {
        return new Bootstrap().group(g).channel(EpollDatagramChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(to).syncUninterruptibly().channel();
    }

    @ParameterizedTest(name = "udp offload {0}")
    @ValueSource(booleans = {false, true})
    void oddSegmentedSendsFromSeveralSendersCountTheSameWithOffloadAndWithout(boolean udpOffload) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable() && EpollDatagramChannel.isSegmentedDatagramPacketSupported());
        EventLoopGroup g = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try (DatagramChannel sink = DatagramChannel.open(); DatagramChannel plain = DatagramChannel.open()) {
            sink.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
            sink.bind(new InetSocketAddress("127.0.0.1", 0));
            try (DataPlane plane = plane(((InetSocketAddress) sink.getLocalAddress()).getPort(), udpOffload)) {
                Channel a = connect(g, plane.localAddress());
                Channel b = connect(g, plane.localAddress());
                Channel c = connect(g, plane.localAddress());
                long valid = 0;
                long datagrams = 0;
                for (int round = 0; round < 3; round++) {
                    ByteArrayOutputStream full = new ByteArrayOutputStream();
                    for (int d = 0; d < 64; d++) {
                        full.write(batch(200)); // 1,022 bytes each, 65,408 in all: the most one send holds
                    }
                    segmented(a, full.toByteArray(), 1022);
                    valid += 320;
                    datagrams += 320; // events: a good batch counts its events as received
                    byte[] two = new byte[2644];
                    System.arraycopy(batch(260), 0, two, 0, 1322);
                    System.arraycopy(batch(260), 0, two, 1322, 1322);
                    segmented(b, two, 700); // cut at 700: none of the four pieces a datagram
                    datagrams += 4;
                    segmented(c, new byte[128 * 100], 100); // 128 pieces of zeros
                    datagrams += 128;
                    segmented(b, new byte[65_507], 1472); // 45 pieces of zeros, the last 747 bytes
                    datagrams += 45;
                    plain.send(ByteBuffer.allocate(0), plane.localAddress()); // empty
                    datagrams += 1;
                }
                long expected = datagrams;
                await(() -> plane.counters().received() == expected, expected + " received");
                List<Long> got = new ArrayList<>();
                ByteBuffer buf = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH + 1);
                DatagramReader reader = new DatagramReader();
                sink.configureBlocking(false);
                long wanted = valid;
                await(() -> {
                    try {
                        buf.clear();
                        if (sink.receive(buf) != null) {
                            assertEquals(RejectReason.NONE, reader.open(buf, 0, buf.position()));
                            while (reader.next()) {
                                got.add(buf.getLong(reader.eventOffset() + WireFormat.SEQUENCE_OFFSET));
                            }
                        }
                        return got.size() >= wanted;
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, valid + " events at the sink");
                RouterCounters rc = plane.counters();
                assertEquals(valid, rc.forwarded(), rc.toString());
                assertEquals(expected - valid, rc.droppedTotal(), "each bad datagram dropped and counted once: " + rc);
                assertEquals(valid, got.size());
                for (Channel ch : List.of(a, b, c)) {
                    ch.close().syncUninterruptibly();
                }
            }
        } finally {
            g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** An empty datagram from source port 0 (only a raw socket sends one) is read and counted like any. */
    @ParameterizedTest(name = "udp offload {0}")
    @ValueSource(booleans = {false, true})
    void anEmptyDatagramFromPortZeroIsCounted(boolean udpOffload) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable() && EpollDatagramChannel.isSegmentedDatagramPacketSupported());
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "a raw socket needs root");
        Path script = Files.createTempFile("raw-udp", ".py");
        Files.writeString(script, """
                import socket, struct, sys
                s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
                # a UDP header alone: source port, destination port, length 8, no checksum
                s.sendto(struct.pack('!HHHH', int(sys.argv[2]), int(sys.argv[1]), 8, 0), ('127.0.0.1', 0))
                """);
        try (DatagramChannel sink = DatagramChannel.open(); DatagramChannel source = DatagramChannel.open()) {
            sink.bind(new InetSocketAddress("127.0.0.1", 0));
            try (DataPlane plane = plane(((InetSocketAddress) sink.getLocalAddress()).getPort(), udpOffload)) {
                int port = plane.localAddress().getPort();
                for (int from : new int[] {0, 0, 40000}) {
                    Process p;
                    try {
                        p = new ProcessBuilder("python3", script.toString(), "" + port, "" + from).inheritIO().start();
                    } catch (java.io.IOException noPython) {
                        Assumptions.abort("python3 sends the raw datagrams: " + noPython.getMessage());
                        return;
                    }
                    assertEquals(0, p.waitFor());
                }
                source.send(ByteBuffer.wrap(batch(260)), plane.localAddress()); // behind them in the port's queue
                await(() -> plane.counters().forwarded() == 5, "the batch forwarded");
                RouterCounters c = plane.counters();
                assertEquals(3 + 5, c.received(), "three empty datagrams read before the batch, and its five events: " + c);
                assertEquals(3, c.droppedTotal(), c.toString());
            }
        } finally {
            Files.deleteIfExists(script);
        }
    }

    @Test
    void theKernelsAnswersToASendItCannotSegmentCountAsRefusals() {
        // the kernel's answers where a socket cannot segment: EMSGSIZE (path MTU, kernels since 2025),
        // EINVAL (the same before, or no checksums), EIO (a device that cannot checksum)
        for (int errno : new int[] {-90, -22, -5}) {
            assertTrue(SegmentedSends.refused(new Errors.NativeIoException("sendmsg", errno)), "errno " + errno);
        }
        assertFalse(SegmentedSends.refused(new Errors.NativeIoException("sendmsg", -111)), "a neighbour gone is not");
    }
}
