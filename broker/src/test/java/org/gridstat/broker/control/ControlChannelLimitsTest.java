package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The broker's control port against raw peers on loopback: heartbeats, the hello deadline, a
 * silent router's session ended, a second session for one router refused, the connection cap.
 */
class ControlChannelLimitsTest {
    private static final long MS = 1_000_000L;
    private final List<Socket> sockets = new ArrayList<>();
    private ControlChannelServer server;

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void start(ControlLiveness.Timing heartbeat, long helloDeadlineMs, int maxConnections) {
        server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("r1", "r2", "r3"), Map.of(),
                RouterPresence.NONE, new ControlLimits(heartbeat, helloDeadlineMs * MS, maxConnections));
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(server.address());
        s.setSoTimeout(10_000);
        return s;
    }

    private Socket router(String id) throws IOException {
        Socket s = connect();
        s.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello(id)));
        assertInstanceOf(ControlMessage.SyncEnd.class, read(s).message(), "resynchronised");
        return s;
    }

    /** The next frame, or {@code null} once the broker has closed the connection. */
    private static ControlFrame read(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        try {
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            return ControlCodec.decode(ByteBuffer.wrap(body));
        } catch (EOFException | java.net.SocketException closed) {
            return null;
        }
    }

    /** Reads until the broker closes the connection, failing if it sends {@code max} frames first. */
    private static List<ControlMessage> readUntilClosed(Socket s, int max) throws IOException {
        List<ControlMessage> got = new ArrayList<>();
        for (ControlFrame f = read(s); f != null; f = read(s)) {
            got.add(f.message());
            assertTrue(got.size() < max, "still open after " + got);
        }
        return got;
    }

    @Test
    void aConnectionThatSaysNoHelloInTimeIsClosedAndCounted() throws Exception {
        start(ControlLiveness.Timing.DEFAULT, 200, 16);
        Socket quiet = connect();
        long t0 = System.nanoTime();
        assertEquals(List.of(), readUntilClosed(quiet, 1), "closed without a word");
        long waited = (System.nanoTime() - t0) / MS;
        assertTrue(waited >= 150, "not before the deadline: " + waited + " ms");
        assertEquals(1, server.limitCounters().helloTimeouts());
        Socket r1 = router("r1"); // who says Hello in time stays
        assertTrue(server.connected("r1"));
        r1.getOutputStream().write(ControlCodec.encode(2, new ControlMessage.Heartbeat()));
        assertEquals(1, server.limitCounters().helloTimeouts());
    }

    @Test
    void theBrokerSendsHeartbeatsAndEndsTheSessionOfARouterThatFallsSilent() throws Exception {
        start(ControlLiveness.Timing.ofMillis(100, 400), 2000, 16);
        Socket r1 = router("r1");
        ControlFrame beat = read(r1);
        assertInstanceOf(ControlMessage.Heartbeat.class, beat.message(), "a heartbeat once nothing else was sent");
        // a router that keeps sending heartbeats keeps its session past the timeout
        long end = System.nanoTime() + 1_000 * MS;
        while (System.nanoTime() < end) {
            r1.getOutputStream().write(ControlCodec.encode(3, new ControlMessage.Heartbeat()));
            Thread.sleep(100);
        }
        assertTrue(server.connected("r1"));
        assertEquals(0, server.limitCounters().silentRouters());
        // then it falls silent: the broker ends the session
        List<ControlMessage> last = readUntilClosed(r1, 100);
        assertTrue(last.stream().allMatch(ControlMessage.Heartbeat.class::isInstance), last.toString());
        assertEquals(1, server.limitCounters().silentRouters());
        assertFalse(server.connected("r1"));
        long until = System.nanoTime() + 5_000 * MS; // the broker's close reaches the peer before its own bookkeeping
        while (!server.refusals().contains("r1: control session lost") && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(List.of("r1: control session lost"), server.refusals());
    }

    @Test
    void aSecondSessionForAConnectedRouterIsRefusedWithAnAlarmNamingBothAndTheFirstKeepsItsFlows() throws Exception {
        start(ControlLiveness.Timing.ofMillis(10_000, 30_000), 2000, 16);
        Socket first = router("r1");
        Socket second = connect();
        second.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("r1")));
        ControlMessage answer = read(second).message();
        ControlMessage.Nack nack = assertInstanceOf(ControlMessage.Nack.class, answer);
        String firstAddress = first.getLocalSocketAddress().toString();
        String secondAddress = second.getLocalAddress().getHostAddress();
        assertTrue(nack.reason().contains("already connected from " + firstAddress), nack.reason());
        assertEquals(List.of(), readUntilClosed(second, 1), "then the second is closed");
        assertEquals(1, server.limitCounters().duplicateSessions());
        String alarm = server.refusals().get(server.refusals().size() - 1);
        assertTrue(alarm.contains(firstAddress) && alarm.contains(secondAddress), alarm);

        assertTrue(server.connected("r1"));
        server.install("r1", new ControlMessage.InstallFlow(1, 5, "cc",
                FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0));
        ControlMessage.InstallFlow got = assertInstanceOf(ControlMessage.InstallFlow.class, read(first).message());
        assertEquals(77, got.spec().flowId(), "the first session is the one that stays");
    }

    @Test
    void aSilentSessionIsTakenOverByTheNextHelloForTheSameRouter() throws Exception {
        start(ControlLiveness.Timing.ofMillis(50, 200), 2000, 16);
        Socket first = router("r1");
        // the first falls silent; whichever comes first, its session ends and the second takes over
        readUntilClosed(first, 100);
        Socket second = router("r1");
        assertTrue(server.connected("r1"));
        assertEquals(0, server.limitCounters().duplicateSessions());
        second.close();
    }

    @Test
    void atTheCapANewConnectionDisplacesTheOldestWithoutHelloAndIsClosedIfAllAreRouters() throws Exception {
        start(ControlLiveness.Timing.ofMillis(10_000, 30_000), 30_000, 3);
        Socket oldest = connect();
        Socket middle = connect();
        Socket r1 = router("r1");
        Socket fourth = connect(); // displaces the oldest that has not said Hello
        assertEquals(List.of(), readUntilClosed(oldest, 1));
        assertEquals(1, server.limitCounters().displacedAtCap());

        middle.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("r2")));
        assertInstanceOf(ControlMessage.SyncEnd.class, read(middle).message());
        fourth.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("r3")));
        assertInstanceOf(ControlMessage.SyncEnd.class, read(fourth).message());

        Socket refused = connect(); // every place is a router's session: closed at once
        assertEquals(List.of(), readUntilClosed(refused, 1));
        assertEquals(1, server.limitCounters().refusedAtCap());
        assertTrue(server.connected("r1") && server.connected("r2") && server.connected("r3"));
        r1.setSoTimeout(200);
        assertThrows(SocketTimeoutException.class, () -> r1.getInputStream().read(), "the routers' sessions stay open");
    }
}
