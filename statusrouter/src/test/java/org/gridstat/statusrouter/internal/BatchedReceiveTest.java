package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** One recvmmsg: each queued datagram in its own slot with its length, at most one per slot, nothing when none. */
class BatchedReceiveTest {
    @Test
    void eachDatagramLandsInItsSlotWithItsLength() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        assertNull(BatchedReceive.unavailable(), "recvmmsg through the pinned Netty");
        Socket socket = Socket.newSocketDgram();
        try (DatagramChannel sender = DatagramChannel.open()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            ByteBuffer slab = ByteBuffer.allocateDirect(3 * 4096);
            BatchedReceive receive = BatchedReceive.into(slab, 4096, 3);
            assertNotNull(receive);
            assertEquals(0, receive.receive(socket.intValue()), "nothing queued: nothing, no error");
            InetSocketAddress to = socket.localAddress();
            byte[] big = new byte[4000];
            big[3999] = 9;
            for (byte[] d : new byte[][] {{1, 2, 3}, big, {4}, {5, 6}}) {
                sender.send(ByteBuffer.wrap(d), to);
            }
            int n = 0;
            long end = System.nanoTime() + 5_000_000_000L;
            while (n == 0 && System.nanoTime() < end) {
                n = receive.receive(socket.intValue());
            }
            assertEquals(3, n, "one datagram a slot, three slots");
            assertEquals(3, receive.length(0));
            assertEquals(4000, receive.length(1));
            assertEquals(1, receive.length(2));
            assertEquals(1, slab.get(0));
            assertEquals(9, slab.get(4096 + 3999));
            assertEquals(4, slab.get(2 * 4096));
            assertEquals(1, receive.receive(socket.intValue()), "the fourth on the next call");
            assertEquals(2, receive.length(0));
            assertEquals(5, slab.get(0));
        } finally {
            socket.close();
        }
    }
}
