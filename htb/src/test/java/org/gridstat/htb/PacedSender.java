package org.gridstat.htb;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends UDP datagrams of a fixed size, first word given, at a steady payload rate from its own thread
 * until closed. Datagrams the qdisc drops are lost silently (the socket does not ask for errors).
 */
final class PacedSender implements AutoCloseable {
    private final DatagramChannel channel;
    private final Thread thread;
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean running = true;
    private volatile IOException failure;

    PacedSender(InetSocketAddress from, InetSocketAddress to, int firstWord, int payloadBytes,
            long payloadBytesPerSecond) throws IOException {
        channel = DatagramChannel.open().bind(from);
        channel.connect(to);
        ByteBuffer payload = ByteBuffer.allocate(payloadBytes).putInt(0, firstWord);
        thread = new Thread(() -> run(payload, payloadBytesPerSecond), "paced sender to " + to);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(ByteBuffer payload, long bytesPerSecond) {
        long start = System.nanoTime();
        long datagrams = 0;
        try {
            while (running) {
                long due = (System.nanoTime() - start) * bytesPerSecond / payload.capacity() / 1_000_000_000L;
                for (; datagrams < due && running; datagrams++) {
                    channel.write(payload.rewind());
                    sent.addAndGet(payload.capacity());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    long bytesSent() {
        return sent.get();
    }

    @Override
    public void close() throws IOException {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        if (failure != null) {
            throw failure;
        }
    }
}
