package org.gridstat.node.bench;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.WireFormat;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A generator packing batches of 1,472 bytes: sent segmented or not, a plain receiver gets every
 * event once, in datagrams of at most 1,472 bytes, each a valid lone frame or batch.
 */
class LoadGeneratorTest {
    @ParameterizedTest(name = "udp offload {0}")
    @ValueSource(booleans = {true, false})
    void everyEventArrivesInDatagramsOfTheBatchSize(boolean udpOffload) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        Assumptions.assumeTrue(!udpOffload || EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP_SEGMENT");
        EventLoopGroup group = Transports.group("generator-test");
        try (DatagramChannel sink = DatagramChannel.open()) {
            sink.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            sink.bind(new InetSocketAddress("127.0.0.1", 0));
            sink.configureBlocking(false);
            long sent;
            try (LoadGenerator generator = new LoadGenerator(group, (InetSocketAddress) sink.getLocalAddress(),
                    List.of(new LoadGenerator.Stream(1, ServiceClass.BE, 0)), 212, (stream, time) -> { }, 1472, udpOffload)) {
                assertEquals(udpOffload, generator.segmenting());
                sent = generator.run(20_000, 0.1, 1000); // 20 events a tick: four batches of five
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH + 1);
            DatagramReader reader = new DatagramReader();
            long events = 0;
            long last = -1;
            long end = System.nanoTime() + 5_000_000_000L;
            while (events < sent && System.nanoTime() < end) {
                buf.clear();
                if (sink.receive(buf) == null) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                    continue;
                }
                assertTrue(buf.position() <= 1472, "a datagram of at most the batch size: " + buf.position());
                assertEquals(RejectReason.NONE, reader.open(buf, 0, buf.position()));
                while (reader.next()) {
                    long sequence = buf.getLong(reader.eventOffset() + WireFormat.SEQUENCE_OFFSET);
                    assertEquals(last + 1, sequence, "in order, none twice");
                    last = sequence;
                    events++;
                }
            }
            assertTrue(sent > 1000, "sent " + sent);
            assertEquals(sent, events);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
