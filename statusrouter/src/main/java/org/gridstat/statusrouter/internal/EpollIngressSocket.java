package org.gridstat.statusrouter.internal;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data-port socket read straight from an epoll event loop, below Netty's channels: a batch of
 * datagrams is received with one {@code recvmmsg} into the {@link FrameIntake}'s fixed slots
 * ({@link BatchedReceive}), or where that is unavailable each with a plain {@code recv} into its next batch slot,
 * so no sender address, packet wrapper or buffer is made for it (Netty's datagram channels make a
 * {@code DatagramPacket} per datagram, even on connected sockets). Registered level-triggered: a
 * wake-up reads at most {@link #READS_PER_WAKE} datagrams, and what is left wakes the loop again
 * after the other sockets and tasks had their turn.
 *
 * <p>With UDP offload the socket has UDP_GRO on: the kernel hands over datagrams it coalesced (a
 * neighbour's segmented send arrives whole on loopback) as one buffer with their length, one
 * {@code recvmsg} each, and the intake splits it ({@link FrameIntake#acceptSlot(int, int, int)}).
 * A wake-up then reads buffers until they hold {@link #READS_PER_WAKE} datagrams, so one wake-up
 * still does a bounded amount of work before the priority port is read again.
 */
final class EpollIngressSocket extends EpollReadable {
    private static final Logger LOG = LoggerFactory.getLogger(EpollIngressSocket.class);
    static final int READS_PER_WAKE = FrameIntake.MAX_BATCH;

    private final Socket socket;
    private final FrameIntake intake;
    private final ByteBuffer slots;
    /** Receives a batch of datagrams per system call; {@code null}: one {@code recv} per datagram. */
    private final BatchedReceive batched;
    /** UDP_GRO is on: {@link #batched} reads coalesced buffers, one {@code recvmsg} each. */
    private final boolean coalescing;
    /** A socket read before this one on each wake-up (the priority port), or {@code null}. */
    private EpollIngressSocket first;

    private EpollIngressSocket(Socket socket, FrameIntake intake, IoEventLoop loop, boolean udpOffload) {
        super(loop, socket);
        this.socket = socket;
        this.intake = intake;
        this.batched = intake.fixedSlots();
        this.slots = intake.slots();
        this.coalescing = udpOffload && batched != null && UdpReceiveCoalescing.enable(socket);
    }

    /**
     * Binds a datagram socket to {@code address} with SO_REUSEPORT (so every event loop can bind
     * the same port and the kernel spreads senders over them) and starts reading it on {@code loop};
     * with {@code udpOffload}, with UDP_GRO on where the kernel and the transport allow.
     */
    static EpollIngressSocket open(IoEventLoop loop, InetSocketAddress address, int receiveBufferBytes, FrameIntake intake,
                                   boolean udpOffload) {
        Socket socket = Socket.newSocketDgram();
        try {
            socket.setReusePort(true);
            socket.setReceiveBufferSize(receiveBufferBytes);
            socket.bind(address);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot bind the data port " + address + ": " + e.getMessage(), e);
        }
        EpollIngressSocket handle;
        try {
            handle = new EpollIngressSocket(socket, intake, loop, udpOffload);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
        handle.register();
        return handle;
    }

    InetSocketAddress localAddress() {
        return socket.localAddress();
    }

    /** Whether the socket has UDP_GRO on and reads coalesced buffers. */
    boolean coalescing() {
        return coalescing;
    }

    /** Makes every wake-up of this socket read {@code socket} first; same event loop. */
    void readFirst(EpollIngressSocket socket) {
        this.first = socket;
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        if (first != null) {
            first.readNow();
        }
        readNow();
    }

    /** Reads what is queued, at most {@link #READS_PER_WAKE} datagrams, and forwards them in one duty cycle. */
    void readNow() {
        if (batched != null) {
            readBatch();
            return;
        }
        try {
            for (int i = 0; i < READS_PER_WAKE; i++) {
                int at = intake.slotOffset();
                int n = socket.recv(slots, at, at + FrameIntake.DATAGRAM_BUFFER);
                if (n == 0) {
                    break; // nothing more queued
                }
                intake.accept(Math.max(n, 0)); // -1: an empty datagram, counted as truncated
            }
        } catch (IOException e) {
            // A pending socket error (ICMP) is reported once by recv and cleared; keep reading next time.
            intake.receiveError();
            LOG.debug("data port {}: receive failed", socket, e);
        }
        intake.readComplete();
    }

    /**
     * One {@code recvmmsg}: at most {@link #READS_PER_WAKE} datagrams, each in its slot, forwarded
     * in one duty cycle; or with UDP_GRO, buffers holding about as many, forwarded in duty cycles
     * of at most {@link FrameIntake#MAX_BATCH} datagrams.
     */
    private void readBatch() {
        int n;
        try {
            n = coalescing ? batched.receiveCoalesced(socket.intValue(), READS_PER_WAKE) : batched.receive(socket.intValue());
        } catch (IOException e) {
            n = batched.filled(); // what a recvmsg before the failing one read is taken all the same
            intake.receiveError(); // as with recv: a pending socket error is reported once and cleared
            LOG.debug("data port {}: receive failed", socket, e);
        }
        for (int i = 0; i < n; i++) {
            if (coalescing) {
                intake.acceptSlot(i, batched.length(i), batched.segmentSize(i));
            } else {
                intake.acceptSlot(i, batched.length(i));
            }
        }
        intake.readComplete();
    }
}
