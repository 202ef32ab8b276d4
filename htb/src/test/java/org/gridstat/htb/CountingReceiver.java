package org.gridstat.htb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.htb.netns.NetworkNamespace;

/** A UDP socket in a network namespace, counting the payload bytes it receives on its own thread until closed. */
final class CountingReceiver implements AutoCloseable {
    private final DatagramChannel channel;
    private final Thread thread;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong datagrams = new AtomicLong();

    CountingReceiver(String namespace, InetSocketAddress at) throws Exception {
        channel = NetworkNamespace.call(namespace, () -> {
            DatagramChannel c = DatagramChannel.open();
            c.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
            return c.bind(at);
        });
        thread = new Thread(this::run, "receiver at " + at);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        try {
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                received.addAndGet(buffer.position());
                datagrams.incrementAndGet();
            }
        } catch (ClosedChannelException closed) {
            // closed by close()
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    long bytes() {
        return received.get();
    }

    long datagrams() {
        return datagrams.get();
    }

    @Override
    public void close() throws IOException {
        channel.close();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
