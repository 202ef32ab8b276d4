package org.gridstat.gateway.device;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/** A blocking C37.118 client for tests: writes bytes, reads whole frames with a deadline. */
final class TcpTestClient implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(10);

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private TcpTestClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    static TcpTestClient connect(InetSocketAddress server) throws IOException {
        return connect(server, 0);
    }

    /** @param receiveBuffer the socket's receive buffer in bytes, 0 for the system's */
    static TcpTestClient connect(InetSocketAddress server, int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.setTcpNoDelay(true);
        s.connect(server, (int) WAIT.toMillis());
        return new TcpTestClient(s);
    }

    void write(byte[]... parts) throws IOException {
        int n = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        out.write(all);
        out.flush();
    }

    void command(int code) throws IOException {
        write(TestFrames.command(code));
    }

    /** The next whole frame; fails if none comes within {@link #WAIT}. */
    byte[] frame() throws IOException {
        socket.setSoTimeout((int) WAIT.toMillis());
        byte[] head = new byte[4];
        in.readFully(head);
        int size = (head[2] & 0xFF) << 8 | (head[3] & 0xFF);
        byte[] frame = Arrays.copyOf(head, size);
        in.readFully(frame, 4, size - 4);
        return frame;
    }

    /** Whether the server closes the connection within {@link #WAIT}, reading and discarding what comes first. */
    boolean closedByServer() throws IOException {
        socket.setSoTimeout((int) WAIT.toMillis());
        byte[] sink = new byte[8192];
        try {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                if (in.read(sink) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
