package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.unix.Socket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a socket with UDP_GRO on reads on loopback, where a segmented send arrives whole: through
 * Netty's recvmsg, the buffer with its segment size; through Netty's recvmmsg, the same buffer
 * with none (why the data ports read coalesced buffers one recvmsg each).
 */
class CoalescedReceiveTest {
    private static final int SLOT = 65_536;

    private EventLoopGroup group;
    private Socket socket;
    private Channel sender;
    private ByteBuffer slab;

    @BeforeEach
    void open() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        Assumptions.assumeTrue(EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP_SEGMENT");
        assertNull(BatchedReceive.coalescedUnavailable(), "recvmsg through the pinned Netty");
        socket = Socket.newSocketDgram();
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        Assumptions.assumeTrue(UdpReceiveCoalescing.enable(socket), "UDP_GRO");
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        sender = new Bootstrap().group(group).channel(EpollDatagramChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(socket.localAddress()).syncUninterruptibly().channel();
        slab = ByteBuffer.allocateDirect(4 * SLOT);
    }

    @AfterEach
    void close() throws Exception {
        if (sender != null) {
            sender.close().syncUninterruptibly();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (socket != null) {
            socket.close();
        }
    }

    /** Sends datagrams of {@code lengths} (the first the segment size) as one segmented send; byte i of datagram d is d. */
    private void sendSegmented(int... lengths) {
        ByteBuf all = Unpooled.directBuffer();
        for (int d = 0; d < lengths.length; d++) {
            for (int i = 0; i < lengths[d]; i++) {
                all.writeByte(d + 1);
            }
        }
        sender.writeAndFlush(new SegmentedDatagramPacket(all, lengths[0], null, (InetSocketAddress) sender.localAddress()))
                .syncUninterruptibly();
    }

    /** Receives until something arrives, at most 5 s. */
    private static int awaitSlots(java.util.concurrent.Callable<Integer> receive) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        int n = 0;
        while (n == 0 && System.nanoTime() < end) {
            n = receive.call();
        }
        return n;
    }

    @Test
    void recvmsgGetsTheCoalescedBufferWithItsSegmentSize() throws Exception {
        BatchedReceive receive = BatchedReceive.into(slab, SLOT, 4);
        assertNotNull(receive);
        assertEquals(0, receive.receiveCoalesced(socket.intValue(), 64), "nothing queued: nothing, no error");
        sendSegmented(1000, 1000, 1000, 500);
        assertEquals(1, awaitSlots(() -> receive.receiveCoalesced(socket.intValue(), 64)));
        assertEquals(3500, receive.length(0), "one buffer: the four datagrams back to back");
        assertEquals(1000, receive.segmentSize(0));
        assertEquals(1, slab.get(999));
        assertEquals(2, slab.get(1000));
        assertEquals(4, slab.get(3499));
        assertEquals(4, CoalescedBuffer.datagrams(receive.length(0), receive.segmentSize(0)));
    }

    @Test
    void aPlainDatagramAndAnEmptyOneHaveNoSegmentSize() throws Exception {
        BatchedReceive receive = BatchedReceive.into(slab, SLOT, 4);
        try (DatagramChannel plain = DatagramChannel.open()) {
            plain.send(ByteBuffer.wrap(new byte[] {7, 7, 7}), socket.localAddress());
            plain.send(ByteBuffer.allocate(0), socket.localAddress());
            plain.send(ByteBuffer.wrap(new byte[] {8}), socket.localAddress());
            int n = 0;
            long end = System.nanoTime() + 5_000_000_000L;
            int[] lengths = new int[3];
            while (n < 3 && System.nanoTime() < end) {
                int got = receive.receiveCoalesced(socket.intValue(), 64);
                for (int i = 0; i < got && n < 3; i++) {
                    assertEquals(0, receive.segmentSize(i));
                    lengths[n++] = receive.length(i);
                }
            }
            assertArrayEquals(new int[] {3, 0, 1}, lengths, "an empty datagram is read as one, not taken for none");
        }
    }

    @Test
    void aReceiveStopsOnceItsBuffersHoldTheDatagramsAsked() throws Exception {
        BatchedReceive receive = BatchedReceive.into(slab, SLOT, 4);
        sendSegmented(1000, 1000, 1000);
        sendSegmented(200, 200);
        sendSegmented(300, 300);
        int n = awaitSlots(() -> receive.receiveCoalesced(socket.intValue(), 4));
        if (n == 1 && receive.length(0) == 3000) { // the next sends were not queued yet
            n = awaitSlots(() -> receive.receiveCoalesced(socket.intValue(), 1));
            assertEquals(1, n);
            assertEquals(400, receive.length(0));
            n = awaitSlots(() -> receive.receiveCoalesced(socket.intValue(), 1));
            assertEquals(600, receive.length(0));
            return;
        }
        assertEquals(2, n, "3 + 2 datagrams reach 4: the third buffer waits");
        assertEquals(3000, receive.length(0));
        assertEquals(400, receive.length(1));
        assertEquals(1, awaitSlots(() -> receive.receiveCoalesced(socket.intValue(), 4)));
        assertEquals(600, receive.length(0));
        assertEquals(300, receive.segmentSize(0));
    }

    @Test
    void nettysRecvmmsgTakesACoalescedBufferForOneDatagram() throws Exception {
        BatchedReceive receive = BatchedReceive.into(slab, SLOT, 4);
        sendSegmented(1000, 1000, 500);
        int n = awaitSlots(() -> receive.receive(socket.intValue()));
        assertEquals(1, n);
        assertEquals(2500, receive.length(0), "the three datagrams in one slot");
        assertEquals(0, receive.segmentSize(0), "and nothing says where they part: if this fails, Netty's recvmmsg"
                + " now reads UDP_GRO's segment size, and the data ports could read coalesced buffers with it");
    }
}
