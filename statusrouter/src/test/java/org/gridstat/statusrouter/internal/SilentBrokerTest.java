package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.time.SystemNanoClock;
import org.junit.jupiter.api.Test;

/**
 * A router whose first broker replica is frozen (its kernel accepts the connection, nothing ever
 * answers) gives it up after the heartbeat timeout and takes its flows from the next replica.
 */
class SilentBrokerTest {
    @Test
    void aRouterLeavesASilentBrokerForTheNextReplicaAndHeartbeatsToIt() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        List<ControlMessage> heardByLive = new CopyOnWriteArrayList<>();
        try (ServerSocket frozen = new ServerSocket(0, 50, loopback); // never accepts: the kernel does
             ServerSocket live = new ServerSocket(0, 50, loopback);
             DataPlane plane = DataPlane.start(RouterSettings.of("silent-r1", "127.0.0.1:0", 1, "auto", 1 << 20,
                     new String[] {"name=cc address=127.0.0.1:9"}, new String[0], new String[0], 1_000_000_000L, 0.5, 4))) {
            Thread broker = new Thread(() -> serve(live, heardByLive), "live-broker");
            broker.setDaemon(true);
            broker.start();
            ControlChannelClient client = new ControlChannelClient("silent-r1",
                    List.of(new InetSocketAddress(loopback, frozen.getLocalPort()),
                            new InetSocketAddress(loopback, live.getLocalPort())),
                    plane, 0, ControlLiveness.Timing.ofMillis(100, 500), SystemNanoClock.INSTANCE);
            long t0 = System.nanoTime();
            client.start();
            try {
                long end = t0 + 20_000_000_000L;
                while (plane.flows().stream().noneMatch(f -> f.flowId() == 77) && System.nanoTime() < end) {
                    Thread.sleep(10);
                }
                long tookMs = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(plane.flows().stream().anyMatch(f -> f.flowId() == 77), "the live replica's flow is installed");
                assertTrue(tookMs >= 450, "the frozen replica had its timeout first: " + tookMs + " ms");
                end = System.nanoTime() + 5_000_000_000L;
                while (heardByLive.stream().noneMatch(ControlMessage.Heartbeat.class::isInstance) && System.nanoTime() < end) {
                    Thread.sleep(10);
                }
                assertInstanceOf(ControlMessage.Hello.class, heardByLive.get(0));
                assertTrue(heardByLive.stream().anyMatch(ControlMessage.Heartbeat.class::isInstance),
                        "the router sends heartbeats: " + heardByLive);
            } finally {
                client.close();
            }
        }
    }

    /** One connection: installs flow 77, ends the sync, then listens and answers heartbeats. */
    private static void serve(ServerSocket server, List<ControlMessage> heard) {
        try (Socket s = server.accept()) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            long seq = 1;
            while (true) {
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
                heard.add(f.message());
                if (f.message() instanceof ControlMessage.Hello) {
                    out.write(ControlCodec.encode(seq++, new ControlMessage.InstallFlow(1, 5, "cc",
                            FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0)));
                    out.write(ControlCodec.encode(seq++, new ControlMessage.SyncEnd()));
                } else if (f.message() instanceof ControlMessage.Heartbeat) {
                    out.write(ControlCodec.encode(seq++, new ControlMessage.Heartbeat()));
                }
            }
        } catch (IOException closed) {
            // the test is over
        }
    }
}
