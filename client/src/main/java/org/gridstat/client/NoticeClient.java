package org.gridstat.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.time.SystemNanoClock;

/**
 * A publisher's congestion-notice connection to its first router: TCP to the router's data address
 * (the same port number as its UDP data port). It introduces itself as a publisher, names the
 * variables it publishes, and hands each notice to {@code onNotice}, acknowledging it. A heartbeat
 * goes out each second it has said nothing, and a router silent for three seconds is given up.
 * When the connection is lost, {@code onLost} runs (the router's holds are its own state, and it
 * sends them again on the next connection), and it reconnects with back-off, naming its variables
 * again. One daemon thread.
 */
final class NoticeClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(NoticeClient.class.getName());
    /** The router's own liveness timing: a heartbeat each quiet second, given up after three silent ones. */
    private static final ControlLiveness.Timing TIMING = ControlLiveness.Timing.DEFAULT;
    static final int HEARTBEAT_MS = (int) (TIMING.periodNanos() / 1_000_000);
    static final int SILENT_MS = (int) (TIMING.timeoutNanos() / 1_000_000);
    private static final long BACKOFF_MIN_MS = 100;
    private static final long BACKOFF_MAX_MS = 5_000;

    private final InetSocketAddress router;
    private final Consumer<ControlMessage.CongestionNotice> onNotice;
    private final Runnable onLost;
    private final Set<Long> variables = new LinkedHashSet<>();
    private final Thread thread;
    private volatile boolean closed;
    private Socket socket;
    private OutputStream out;
    private long sequence;
    /** The connection's heartbeats and silence; guarded by this client. */
    private ControlLiveness liveness;

    NoticeClient(InetSocketAddress router, Consumer<ControlMessage.CongestionNotice> onNotice, Runnable onLost) {
        this.router = router;
        this.onNotice = onNotice;
        this.onLost = onLost;
        this.thread = new Thread(this::run, "gridstat-publisher-notices");
        thread.setDaemon(true);
        thread.start();
    }

    /** Names a variable this publisher publishes: its notices come from now on. */
    synchronized void publishes(long variableId) {
        if (variables.add(variableId) && out != null) {
            write(new ControlMessage.Publishes(new long[] {variableId}));
        }
    }

    private synchronized void write(ControlMessage m) {
        if (out == null) {
            return;
        }
        try {
            out.write(ControlCodec.encode(++sequence, m));
            out.flush();
            liveness.sent();
        } catch (IOException e) {
            closeSocket(); // the reader sees it and reconnects
        }
    }

    /**
     * Sends a heartbeat once nothing went to the router for a period (what keeps its liveness), and
     * gives a router silent for the timeout up.
     */
    private synchronized void keepAlive() throws IOException {
        switch (liveness.poll()) {
            case HEARTBEAT -> write(new ControlMessage.Heartbeat());
            case SILENT -> throw new IOException("router silent for " + SILENT_MS + " ms");
            default -> { }
        }
    }

    private synchronized void heard() {
        liveness.heard();
    }

    private synchronized void opened(Socket s) throws IOException {
        socket = s;
        out = s.getOutputStream();
        liveness = new ControlLiveness(SystemNanoClock.INSTANCE, TIMING);
        write(new ControlMessage.NoticePeer(""));
        long[] all = variables.stream().mapToLong(Long::longValue).toArray();
        for (int from = 0; from < all.length; from += ControlMessage.Publishes.MAX_VARIABLES) {
            write(new ControlMessage.Publishes(java.util.Arrays.copyOfRange(all, from,
                    Math.min(all.length, from + ControlMessage.Publishes.MAX_VARIABLES))));
        }
    }

    private synchronized void closeSocket() {
        out = null;
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void run() {
        long backoff = BACKOFF_MIN_MS;
        while (!closed) {
            boolean connected = false;
            try (Socket s = new Socket()) {
                s.connect(router, 2_000);
                s.setSoTimeout(HEARTBEAT_MS / 4); // checks for a due heartbeat even while the router says nothing
                s.setTcpNoDelay(true);
                opened(s);
                connected = true;
                backoff = BACKOFF_MIN_MS;
                read(s.getInputStream());
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.DEBUG, "congestion notices from " + router + ": " + e);
                }
            } finally {
                closeSocket();
                if (connected) {
                    onLost.run();
                }
            }
            if (!closed) {
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException e) {
                    return;
                }
                backoff = Math.min(BACKOFF_MAX_MS, backoff * 2);
            }
        }
    }

    private void read(InputStream in) throws IOException {
        byte[] prefix = new byte[ControlCodec.LENGTH_PREFIX];
        while (!closed) {
            readFully(in, prefix);
            int length = ByteBuffer.wrap(prefix).getInt();
            if (length < 0 || length > ControlCodec.MAX_BODY) {
                throw new IOException("a frame of " + length + " bytes");
            }
            byte[] body = new byte[length];
            readFully(in, body);
            heard();
            keepAlive(); // the router may talk more often than the read times out
            ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
            if (f.valid() && f.message() instanceof ControlMessage.CongestionNotice n) {
                onNotice.accept(n);
                write(new ControlMessage.Ack(f.sequence()));
            } else if (!f.valid()) {
                LOG.log(System.Logger.Level.DEBUG, "congestion notices from " + router + ": refused " + f);
            }
        }
        throw new EOFException("closed");
    }

    /**
     * Reads {@code b} whole. A read timeout keeps what of the frame was read already (a timeout
     * inside {@code DataInputStream.readInt} loses it, and the stream's framing with it), and is a
     * quiet moment: a heartbeat goes out, or a router silent too long is given up.
     */
    private void readFully(InputStream in, byte[] b) throws IOException {
        int off = 0;
        while (off < b.length) {
            if (closed) {
                throw new EOFException("closed");
            }
            int n;
            try {
                n = in.read(b, off, b.length - off);
            } catch (SocketTimeoutException quiet) {
                keepAlive();
                continue;
            }
            if (n < 0) {
                throw new EOFException("closed by the router");
            }
            off += n;
        }
    }

    @Override
    public void close() {
        closed = true;
        closeSocket();
        thread.interrupt();
    }
}
