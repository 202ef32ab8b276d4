package org.gridstat.gateway.device;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/** A loopback UDP socket for tests: sends commands, receives one frame per datagram with a deadline. */
final class UdpTestSocket implements AutoCloseable {
    private final DatagramSocket socket;

    UdpTestSocket() throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket.setSoTimeout((int) TcpTestClient.WAIT.toMillis());
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    void send(byte[] datagram, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(datagram, datagram.length, to));
    }

    void command(int code, InetSocketAddress to) throws IOException {
        send(TestFrames.command(code), to);
    }

    /** The next datagram; fails if none comes within the wait. */
    byte[] frame() throws IOException {
        byte[] b = new byte[65_536];
        DatagramPacket p = new DatagramPacket(b, b.length);
        socket.receive(p);
        return Arrays.copyOf(b, p.getLength());
    }

    @Override
    public void close() {
        socket.close();
    }
}
