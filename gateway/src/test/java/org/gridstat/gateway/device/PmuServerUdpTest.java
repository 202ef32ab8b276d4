package org.gridstat.gateway.device;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PmuServerUdpTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final TestStream stream = TestStream.twoPmus();
    private PmuServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
    }

    private void send(int n) {
        server.send(ByteBuffer.wrap(TestFrames.data(stream.config2, n)));
    }

    @Test
    void aCommandDatagramRegistersThePeerAndDataOnSendsItDatagrams() throws IOException {
        server = PmuServer.start(PmuServer.Settings.udp(ANY_LOOPBACK_PORT), stream);
        try (UdpTestSocket peer = new UdpTestSocket()) {
            peer.command(CommandFrame.SEND_CONFIG_2, server.udpAddress());
            byte[] cfg2 = peer.frame();
            assertEquals(stream.config2.pmus(), new ConfigFrameCodec().decode(ByteBuffer.wrap(cfg2), 0, cfg2.length).frame().pmus());
            assertEquals(1, server.counters().udpPeers());

            peer.command(CommandFrame.DATA_ON, server.udpAddress());
            Await.until("data on is obeyed", () -> server.counters().dataOn() == 1);
            for (int n = 1; n <= 50; n++) {
                send(n);
            }
            for (int n = 1; n <= 50; n++) {
                assertArrayEquals(TestFrames.data(stream.config2, n), peer.frame(), "datagram " + n);
            }
            peer.command(CommandFrame.DATA_OFF, server.udpAddress());
            Await.until("data off is obeyed", () -> server.counters().dataOff() == 1);
            send(51);
            peer.command(CommandFrame.SEND_HEADER, server.udpAddress());
            assertEquals(FrameType.HEADER, TestFrames.type(peer.frame()), "frame 51 was not sent");
            ServerCounters.ClientCounters c = server.counters().client(peer.address());
            assertEquals("udp", c.transport());
            assertEquals(50, c.dataFramesSent());
        }
    }

    @Test
    void aCommandForAnotherStreamOrGarbageRegistersNobody() throws IOException {
        server = PmuServer.start(PmuServer.Settings.udp(ANY_LOOPBACK_PORT), stream);
        try (UdpTestSocket peer = new UdpTestSocket()) {
            peer.send(TestFrames.command(TestStream.ID_CODE + 1, CommandFrame.DATA_ON), server.udpAddress());
            peer.send(new byte[] {(byte) 0xAA, 0x41, 0, 18, 1, 2}, server.udpAddress());
            peer.command(CommandFrame.SEND_HEADER, server.udpAddress());
            assertEquals(FrameType.HEADER, TestFrames.type(peer.frame()));
        }
        ServerCounters n = server.counters();
        assertEquals(1, n.commandsRefusedWrongIdCode());
        assertEquals(1, n.commandsRefusedBadFrame());
        assertEquals(0, n.dataOn());
        assertEquals(1, n.udpPeersRegistered());
    }

    @Test
    void peersCountTowardMaxClientsAndAQuietPeerIsForgotten() throws IOException {
        server = PmuServer.start(PmuServer.Settings.udp(ANY_LOOPBACK_PORT).withMaxClients(1)
                .withIdleTimeout(Duration.ofSeconds(1)), stream);
        try (UdpTestSocket first = new UdpTestSocket(); UdpTestSocket second = new UdpTestSocket()) {
            first.command(CommandFrame.SEND_HEADER, server.udpAddress());
            first.frame();
            second.command(CommandFrame.SEND_HEADER, server.udpAddress());
            Await.until("the second peer is refused", () -> server.counters().connectionsRefused() == 1);
            Await.until("the first peer is forgotten", () -> server.counters().udpPeersForgotten() == 1);
            second.command(CommandFrame.SEND_HEADER, server.udpAddress());
            assertEquals(FrameType.HEADER, TestFrames.type(second.frame()), "its slot is free again");
        }
        assertEquals(2, server.counters().udpPeersRegistered());
    }

    @Test
    void spontaneousModeSendsConfig2FirstThenEveryFrameAndRepeatsConfig2() throws IOException {
        try (UdpTestSocket receiver = new UdpTestSocket()) {
            server = PmuServer.start(new PmuServer.Settings(null, null, receiver.address(), null, 4, 1 << 20,
                    Duration.ofMillis(200), Duration.ofSeconds(120)), stream);
            assertNull(server.udpAddress(), "no commands taken");
            for (int n = 1; n <= 20; n++) {
                send(n);
            }
            byte[] first = receiver.frame();
            assertEquals(FrameType.CONFIG_2, TestFrames.type(first));
            assertEquals(stream.config2.pmus(), new ConfigFrameCodec().decode(ByteBuffer.wrap(first), 0, first.length).frame().pmus());
            for (int n = 1; n <= 20; n++) {
                assertArrayEquals(TestFrames.data(stream.config2, n), receiver.frame(), "datagram " + n);
            }
            assertEquals(FrameType.CONFIG_2, TestFrames.type(receiver.frame()), "CFG-2 again after configEvery");
        }
        assertEquals(20, server.counters().dataFramesSent());
    }

    @Test
    void commandsOnTcpDataOnUdp() throws IOException {
        try (UdpTestSocket receiver = new UdpTestSocket()) {
            server = PmuServer.start(PmuServer.Settings.tcp(ANY_LOOPBACK_PORT).withTcpDataOverUdp(receiver.address()), stream);
            try (TcpTestClient a = TcpTestClient.connect(server.tcpAddress());
                 TcpTestClient b = TcpTestClient.connect(server.tcpAddress())) {
                for (TcpTestClient c : java.util.List.of(a, b)) {
                    c.write(TestFrames.command(CommandFrame.DATA_ON), TestFrames.command(CommandFrame.SEND_HEADER));
                    assertEquals(FrameType.HEADER, TestFrames.type(c.frame()));
                }
                for (int n = 1; n <= 30; n++) {
                    send(n);
                }
                for (int n = 1; n <= 30; n++) {
                    assertArrayEquals(TestFrames.data(stream.config2, n), receiver.frame(), "datagram " + n + ", once for both clients");
                }
                a.command(CommandFrame.SEND_CONFIG_2);
                assertEquals(FrameType.CONFIG_2, TestFrames.type(a.frame()), "no data on the TCP connection");
                b.command(CommandFrame.DATA_OFF);
                a.command(CommandFrame.DATA_OFF);
                Await.until("both turned data off", () -> server.counters().dataOff() == 2);
                send(31);
                a.command(CommandFrame.SEND_HEADER);
                assertEquals(FrameType.HEADER, TestFrames.type(a.frame()));
            }
            assertEquals(30, server.counters().dataFramesSent());
        }
    }
}
