package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
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
 * In sync (connected, nothing unacknowledged) is what installers and operators read as "the
 * router holds its flows": it must not hold between a router's Hello and the resynchronisation
 * sent for it, or a caller publishes into a router that has not been given its flows yet.
 */
class ResyncVisibilityTest {
    private static final ControlMessage.InstallFlow FLOW = new ControlMessage.InstallFlow(1, 5, "cc",
            FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0);
    private static final int SESSIONS = 40;

    @Test
    void aRouterIsNeverInSyncBeforeItHasAcknowledgedItsResynchronisation() throws Exception {
        try (ControlChannelServer server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("r1"))) {
            server.install("r1", FLOW);
            // even: the router has not acknowledged its resynchronisation; odd: it may have
            AtomicLong phase = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong earlySightings = new AtomicLong();
            Thread watcher = new Thread(() -> {
                while (!stop.get()) {
                    long before = phase.get();
                    boolean inSync = server.inSync("r1");
                    if (inSync && before % 2 == 0 && phase.get() == before) {
                        earlySightings.incrementAndGet();
                    }
                    Thread.onSpinWait();
                }
            }, "in-sync watcher");
            watcher.start();
            try {
                for (int i = 0; i < SESSIONS; i++) {
                    try (Socket s = RawRouter.hello(server, "r1")) {
                        OutputStream out = s.getOutputStream();
                        ControlFrame install = RawRouter.read(s);
                        assertInstanceOf(ControlMessage.InstallFlow.class, install.message());
                        ControlFrame end = RawRouter.read(s);
                        assertInstanceOf(ControlMessage.SyncEnd.class, end.message());
                        assertEquals(new ControlChannelServer.RouterSync(true, 2), server.sync("r1"),
                                "connected once the router can read its resynchronisation, pending until it answers");
                        phase.incrementAndGet();
                        out.write(ControlCodec.encode(2, new ControlMessage.Ack(install.sequence())));
                        out.write(ControlCodec.encode(3, new ControlMessage.Ack(end.sequence())));
                        out.flush();
                        await(() -> server.inSync("r1"), "in sync once acknowledged");
                    }
                    await(() -> !server.connected("r1"), "the closed session is gone");
                    phase.incrementAndGet();
                }
            } finally {
                stop.set(true);
                watcher.join();
            }
            assertEquals(0, earlySightings.get(),
                    "times a router read as in sync before acknowledging its resynchronisation");
        }
    }

    @Test
    void whatIsUnacknowledgedBelongsToItsSession() throws Exception {
        try (ControlChannelServer server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("r1"))) {
            try (Socket first = RawRouter.hello(server, "r1")) {
                ControlFrame end = RawRouter.read(first);
                assertInstanceOf(ControlMessage.SyncEnd.class, end.message());
                first.getOutputStream().write(ControlCodec.encode(2, new ControlMessage.Ack(end.sequence())));
                await(() -> server.inSync("r1"), "in sync with no flows");
                server.install("r1", FLOW); // sent, and never answered on this session
                assertInstanceOf(ControlMessage.InstallFlow.class, RawRouter.read(first).message());
                assertEquals(new ControlChannelServer.RouterSync(true, 1), server.sync("r1"));
            }
            await(() -> !server.connected("r1"), "the closed session is gone");
            assertEquals(ControlChannelServer.RouterSync.NONE, server.sync("r1"));
            assertFalse(server.inSync("r1"), "a router without a session is not in sync, whatever it left unanswered");
            try (Socket second = RawRouter.hello(server, "r1")) {
                ControlFrame install = RawRouter.read(second);
                assertInstanceOf(ControlMessage.InstallFlow.class, install.message(), "the resync sends the flow again");
                ControlFrame end = RawRouter.read(second);
                assertEquals(new ControlChannelServer.RouterSync(true, 2), server.sync("r1"),
                        "the new session counts what was sent on it, not what the old one left");
                OutputStream out = second.getOutputStream();
                out.write(ControlCodec.encode(2, new ControlMessage.Ack(install.sequence())));
                out.write(ControlCodec.encode(3, new ControlMessage.Ack(end.sequence())));
                await(() -> server.inSync("r1"), "in sync once the new session's messages are answered");
            }
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, what);
            Thread.sleep(1);
        }
    }
}
