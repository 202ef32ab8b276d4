package org.gridstat.node.testbed;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.htb.netns.NetworkNamespace;

/**
 * The far end of a veth pair, in its own network namespace: takes the datagrams a router sent
 * over the pair (through the kernel's shaping on the near end) and hands each to {@code to} in
 * the root namespace after a fixed delay, the link's propagation delay emulated in user space. So
 * one process carries a router's egress through a real interface and its qdisc and still reaches
 * the next router on this host.
 *
 * <p>At most {@link #CAPACITY} datagrams wait for their time; more are dropped and counted (a
 * delay of a few milliseconds at the testbed's rates holds a handful).
 */
final class FarSideRelay implements AutoCloseable {
    static final int CAPACITY = 4096;

    private record Held(long due, byte[] bytes) {
    }

    private final DatagramChannel channel;
    private final InetSocketAddress to;
    private final long delayNanos;
    private final BlockingQueue<Held> waiting = new ArrayBlockingQueue<>(CAPACITY);
    private final AtomicLong relayed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread receiver;
    private final Thread sender;
    private volatile boolean open = true;

    private FarSideRelay(DatagramChannel channel, InetSocketAddress to, long delayNanos) {
        this.channel = channel;
        this.to = to;
        this.delayNanos = delayNanos;
        this.receiver = new Thread(this::receive, "relay-receive");
        this.sender = new Thread(this::send, "relay-send");
        receiver.setDaemon(true);
        sender.setDaemon(true);
    }

    /** Binds {@code at} inside {@code namespace} and relays what arrives there to {@code to}, {@code delayNanos} later. */
    static FarSideRelay open(String namespace, InetSocketAddress at, InetSocketAddress to, long delayNanos) throws Exception {
        DatagramChannel ch = NetworkNamespace.call(namespace, () -> {
            DatagramChannel c = DatagramChannel.open();
            c.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
            return c.bind(at); // a socket stays in the namespace it was made in, whatever thread uses it
        });
        FarSideRelay r = new FarSideRelay(ch, to, delayNanos);
        r.receiver.start();
        r.sender.start();
        return r;
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    long relayed() {
        return relayed.get();
    }

    long dropped() {
        return dropped.get();
    }

    private void receive() {
        ByteBuffer b = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH);
        while (open) {
            try {
                b.clear();
                channel.receive(b);
                b.flip();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                if (!waiting.offer(new Held(System.nanoTime() + delayNanos, bytes))) {
                    dropped.incrementAndGet();
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                dropped.incrementAndGet();
            }
        }
    }

    private void send() {
        ByteBuffer b = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM_LENGTH);
        while (open) {
            try {
                Held h = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (h == null) {
                    continue;
                }
                long wait;
                while ((wait = h.due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                b.clear();
                b.put(h.bytes).flip();
                channel.send(b, to);
                relayed.incrementAndGet();
            } catch (InterruptedException | ClosedChannelException e) {
                return;
            } catch (IOException e) {
                dropped.incrementAndGet();
            }
        }
    }

    @Override
    public void close() throws IOException {
        open = false;
        channel.close();
        receiver.interrupt();
        sender.interrupt();
    }
}
