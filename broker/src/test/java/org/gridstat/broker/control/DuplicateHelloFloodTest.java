package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/**
 * A peer that names a real router in its Hello while that router is connected is refused with a
 * DUPLICATE_ROUTER alarm, a control decision. Peers from many addresses (here 1,000 loopback
 * addresses) must not evict the real decisions, such as a router refusing an install, from the
 * bounded decision list: the alarm folds per router, whoever the peers are.
 */
class DuplicateHelloFloodTest {
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

    @Test
    void hellosForAConnectedRouterFromManyAddressesDoNotEvictARealRefusal() throws Exception {
        try (ControlChannelServer server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("r1"),
                Map.of(), RouterPresence.NONE, new ControlLimits(ControlLiveness.Timing.ofMillis(10_000, 30_000),
                        2_000_000_000L, 64));
             Socket r1 = new Socket()) {
            r1.connect(server.address());
            r1.setSoTimeout(10_000);
            r1.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("r1")));
            assertInstanceOf(ControlMessage.SyncEnd.class, read(r1).message());
            server.install("r1", new ControlMessage.InstallFlow(1, 5, "cc",
                    FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0));
            ControlFrame install = read(r1);
            assertInstanceOf(ControlMessage.InstallFlow.class, install.message());
            r1.getOutputStream().write(ControlCodec.encode(2, new ControlMessage.Nack(install.sequence(), "no room on cc")));
            long until = System.nanoTime() + 5_000_000_000L;
            while (server.alarms().recent(AlarmLog.Category.DECISION).isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertEquals(AlarmLog.Kind.INSTALL_REFUSED, server.alarms().recent(AlarmLog.Category.DECISION).get(0).kind());

            for (int i = 0; i < 1_000; i++) {
                try (Socket attacker = new Socket()) {
                    attacker.bind(new InetSocketAddress("127.0." + (1 + i / 250) + "." + (1 + i % 250), 0));
                    attacker.connect(server.address());
                    attacker.setSoTimeout(10_000);
                    attacker.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("r1")));
                    while (read(attacker) != null) {
                        // the Nack, then closed
                    }
                }
            }
            assertTrue(server.connected("r1"), "the real session stays");
            List<AlarmLog.Alarm> decisions = server.alarms().recent(AlarmLog.Category.DECISION);
            assertTrue(decisions.stream().anyMatch(a -> a.kind() == AlarmLog.Kind.INSTALL_REFUSED),
                    "r1's refusal of an install was evicted by " + decisions.size() + " alarms such as "
                            + decisions.get(decisions.size() - 1));
        }
    }
}
