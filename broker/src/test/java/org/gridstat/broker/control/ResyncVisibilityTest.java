package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/**
 * "Connected with nothing pending" is what installers and operators read as "the router holds its
 * flows": it must not hold between a router's Hello and the resynchronisation sent for it, or a
 * caller publishes into a router that has not been given its flows yet.
 */
class ResyncVisibilityTest {
    private static final ControlMessage.InstallFlow FLOW = new ControlMessage.InstallFlow(1, 5, "cc",
            FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0);
    private static final int SESSIONS = 40;

    @Test
    void aRouterIsNeverInSyncBeforeItHasAcknowledgedItsResynchronisation() throws Exception {
        try (ControlChannelServer server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("r1"))) {
            server.install("r1", FLOW);
            AtomicBoolean acknowledged = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong earlySightings = new AtomicLong();
            Thread watcher = new Thread(() -> {
                while (!stop.get()) {
                    boolean ackedBefore = acknowledged.get();
                    if (server.connected("r1") && server.pending("r1") == 0 && !ackedBefore) {
                        earlySightings.incrementAndGet();
                    }
                }
            }, "in-sync watcher");
            watcher.start();
            try {
                for (int i = 0; i < SESSIONS; i++) {
                    acknowledged.set(false);
                    try (Socket s = new Socket()) {
                        s.connect(server.address());
                        s.setSoTimeout(5_000);
                        OutputStream out = s.getOutputStream();
                        out.write(ControlCodec.encode(1, new ControlMessage.Hello("r1")));
                        ControlFrame install = read(s);
                        assertInstanceOf(ControlMessage.InstallFlow.class, install.message());
                        ControlFrame end = read(s);
                        assertInstanceOf(ControlMessage.SyncEnd.class, end.message());
                        assertFalse(server.pending("r1") == 0, "the resynchronisation is pending until acknowledged");
                        acknowledged.set(true);
                        out.write(ControlCodec.encode(2, new ControlMessage.Ack(install.sequence())));
                        out.write(ControlCodec.encode(3, new ControlMessage.Ack(end.sequence())));
                        out.flush();
                        await(() -> server.connected("r1") && server.pending("r1") == 0, "in sync once acknowledged");
                    }
                    await(() -> !server.connected("r1"), "the closed session is gone");
                }
            } finally {
                stop.set(true);
                watcher.join();
            }
            assertEquals(0, earlySightings.get(),
                    "times a router read as connected with nothing pending before acknowledging its resynchronisation");
        }
    }

    private static ControlFrame read(Socket s) throws Exception {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
        assertTrue(f.valid(), f.toString());
        return f;
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, what);
            Thread.sleep(1);
        }
    }
}
