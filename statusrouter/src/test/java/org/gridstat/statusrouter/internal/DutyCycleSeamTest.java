package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import io.netty.channel.epoll.Epoll;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.egress.DataPathAgent;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.egress.Transmitter;
import org.gridstat.core.egress.WakeupService;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.StatusEventEncoder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The seam the simulator stands on: the router's own data path (FrameIntake, DataPath, the
 * LinkTransmitter and LoopWakeups on an event loop whose time the test moves) and the bare
 * {@link DataPathAgent} driven with a fake transmitter and exact wake-ups, given the same frames at
 * the same instants, send the same events in the same order, each within one pacing tick.
 */
class DutyCycleSeamTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;
    private static final long STEP = 10 * US;
    private static final InetSocketAddress SENDER = new InetSocketAddress("127.0.0.1", 20001);
    private static final String[] LINKS = {"name=a address=127.0.0.1:21001 capacity=260000 burst=2944"};
    private static final String[] FLOWS = {"id=1 variable=1 link=a class=HRT buffer=64", "id=2 variable=2 link=a class=BE buffer=64",
        "id=3 variable=3 link=a class=LRT buffer=64"};

    /** An input frame: when it arrives (after T0), its variable, its sequence, and its deadline after arrival. */
    private record In(long at, long variable, long seq, long deadlineAfter) {
    }

    /** A departure: which frame (variable, sequence) and when, after T0. */
    private record Out(long variable, long seq, long at) {
    }

    private static List<In> input() {
        List<In> in = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < 12; i++) {
            in.add(new In(0, 2, seq++, 0)); // a best-effort backlog
        }
        in.add(new In(2_300 * US, 1, seq++, 20 * MS));
        in.add(new In(2_300 * US, 3, seq++, 40 * MS));
        in.add(new In(2_310 * US, 1, seq++, 10 * MS));
        for (int i = 0; i < 6; i++) {
            in.add(new In(5_100 * US + i * 130 * US, 2, seq++, 0));
        }
        in.add(new In(7_000 * US, 3, seq++, 5 * MS));
        in.add(new In(30 * MS, 1, seq++, 20 * MS)); // after a quiet spell: leaves at once
        // A set that arrives together on a rested link leaves together, packed, in the order EDF sends it.
        for (int i = 0; i < 4; i++) {
            in.add(new In(45 * MS, i < 2 ? 1 : 3, seq++, 10 * MS));
        }
        return in;
    }

    private static ByteBuffer frame(In e) {
        ByteBuffer b = ByteBuffer.allocate(260);
        long t = T0 + e.at();
        new StatusEventEncoder().wrap(b, 0).variableId(e.variable()).sequence(e.seq()).sourceTimeNanos(t)
                .deadlineNanos(e.deadlineAfter() == 0 ? 0 : t + e.deadlineAfter()).serviceClass(ServiceClass.BE)
                .rawPayloadLength(212).seal();
        return b;
    }

    /**
     * The frames due at one instant as one datagram (a batch when there are several), so the router
     * reads them in one cycle as the bare agent is given them. Sent one by one, they may be read in
     * several cycles, each of which sends what it may as its own datagram; each datagram's IP and
     * UDP headers are charged to the pacer, so the later departures would leave later than the
     * agent's for a reason that is the socket's, not the data path's.
     */
    private static ByteBuffer datagram(List<In> together) {
        if (together.size() == 1) {
            return frame(together.get(0));
        }
        int[] lengths = new int[together.size()];
        List<ByteBuffer> frames = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            ByteBuffer f = frame(together.get(i));
            frames.add(f);
            lengths[i] = f.remaining();
        }
        ByteBuffer b = ByteBuffer.allocate(BatchHeaderWriter.headerLength(lengths.length) + together.size() * 260);
        b.position(new BatchHeaderWriter().write(b, 0, lengths, lengths.length));
        frames.forEach(b::put);
        return b.flip();
    }

    /** The router's data path on an embedded event loop, time stepped by {@link #STEP}; {@code datagrams} gets each datagram's event count. */
    private static List<Out> router(List<In> input, List<Integer> datagrams) {
        ManualClock clock = new ManualClock(T0);
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, LINKS, FLOWS, new String[0], S, 0.5, 64);
        EmbeddedChannel link = new EmbeddedChannel();
        link.freezeTime();
        DataPath path = new DataPath(s, link.eventLoop(), clock, clock, new DataPathCounters());
        link.pipeline().addLast(path.links[0]);
        path.links[0].attach(link);
        path.start();
        EmbeddedChannel ingress = new EmbeddedChannel(new IngressHandler(new FrameIntake(path, new DataPathCounters())));
        List<Out> out = new ArrayList<>();
        int next = 0;
        for (long t = 0; t <= 60 * MS; t += STEP) {
            while (next < input.size() && input.get(next).at() <= t) {
                // Frames due at one instant arrive in one read batch.
                long at = input.get(next).at();
                while (next < input.size() && input.get(next).at() == at) {
                    ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(260).writeBytes(frame(input.get(next++)));
                    ingress.writeOneInbound(new DatagramPacket(b, null, SENDER));
                }
                ingress.flushInbound();
            }
            link.runScheduledPendingTasks();
            ByteBuf sent;
            while ((sent = link.readOutbound()) != null) {
                List<SentEvents.Event> events = SentEvents.of(sent.nioBuffer());
                for (SentEvents.Event e : events) {
                    out.add(new Out(e.variable(), e.sequence(), t));
                }
                datagrams.add(events.size());
                sent.release();
            }
            clock.advance(STEP);
            link.advanceTimeBy(STEP, TimeUnit.NANOSECONDS);
        }
        path.discard();
        return out;
    }

    /** The bare agent, with the same flows, woken exactly when it asks; {@code datagrams} gets each datagram's event count. */
    private static List<Out> agent(List<In> input, List<Integer> datagrams) {
        ManualClock clock = new ManualClock(T0);
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, LINKS, FLOWS, new String[0], S, 0.5, 64);
        EventReferences<In> refs = new EventReferences<>() {
            @Override
            public void retain(In e) {
            }

            @Override
            public void release(In e) {
            }
        };
        ForwardingEngine<In> engine = new ForwardingEngine<>(List.of(s.links.get(0).spec), 64, refs, s.estimator,
                clock.nanoTime());
        for (FlowEntry f : s.flows) {
            engine.submit(FlowCommand.install(f));
        }
        engine.applyCommands(clock.nanoTime()); // as the router installs its configured flows
        List<Out> out = new ArrayList<>();
        Transmitter<In> tx = new Transmitter<>() {
            @Override
            public boolean writable() {
                return true;
            }

            int open;

            @Override
            public void write(In e) {
                out.add(new Out(e.variable(), e.seq(), clock.nanoTime() - T0));
                open++;
            }

            @Override
            public void endDatagram() {
                datagrams.add(open);
                open = 0;
            }

            @Override
            public void flush() {
            }
        };
        long[] wake = {Long.MAX_VALUE};
        WakeupService wakeups = t -> wake[0] = t;
        DataPathAgent<In> agent = new DataPathAgent<>(engine, List.of(new EgressPump<>(engine, 0, tx, refs, e -> 260, null)),
                wakeups, clock, clock, 64, S);
        int next = 0;
        while (true) {
            long inputAt = next < input.size() ? T0 + input.get(next).at() : Long.MAX_VALUE;
            long at = Math.min(inputAt, wake[0]);
            if (at > T0 + 60 * MS) {
                break;
            }
            clock.advance(Math.max(0, at - clock.nanoTime()));
            agent.beginCycle();
            while (next < input.size() && T0 + input.get(next).at() == at) {
                In e = input.get(next++);
                agent.forward(e.variable(), T0 + e.at(), e.deadlineAfter() == 0 ? 0 : T0 + e.at() + e.deadlineAfter(), e, 260);
            }
            if (at == wake[0]) {
                wake[0] = Long.MAX_VALUE; // this wake-up is spent; a request stands until then
            }
            agent.doWork();
        }
        return out;
    }

    /**
     * The router itself, on loopback: its epoll sockets and event loop, its wake-ups and pacing
     * tick, with both its clocks a manual one that the test moves in steps of {@link #STEP}. At
     * each step the frames due are sent to its port, in one datagram, and the test waits until it has read them;
     * where the bare agent sent events by then, it waits (bounded) until as many reached the sink;
     * what arrived is stamped with the step's time. Datagram boundaries are not compared here.
     */
    private static List<Out> routerOnLoopback(List<In> input, List<Out> expected) throws Exception {
        ManualClock clock = new ManualClock(T0);
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel sender = DatagramChannel.open()) {
            sink.configureBlocking(false);
            String[] links = {LINKS[0].replace("127.0.0.1:21001",
                    "127.0.0.1:" + ((InetSocketAddress) sink.getLocalAddress()).getPort())};
            RouterSettings s = RouterSettings.of("seam", "127.0.0.1:0", 1, "epoll", 1 << 20, links, FLOWS, new String[0], S,
                    0.5, 64);
            List<Out> out = new ArrayList<>();
            ByteBuffer buf = ByteBuffer.allocateDirect(65_536);
            try (DataPlane router = DataPlane.start(s, clock, clock)) {
                int next = 0;
                int sent = 0;
                for (long t = 0; t <= 60 * MS; t += STEP) {
                    boolean arrived = false;
                    while (next < input.size() && input.get(next).at() <= t) {
                        List<In> together = new ArrayList<>();
                        long at = input.get(next).at();
                        while (next < input.size() && input.get(next).at() == at) {
                            together.add(input.get(next++));
                        }
                        sender.send(datagram(together), router.localAddress());
                        sent += together.size();
                        arrived = true;
                    }
                    long until = System.nanoTime() + 5_000_000_000L;
                    while (arrived && router.counters().received() < sent && System.nanoTime() < until) {
                        Thread.sleep(1); // read at this step's time, before the clock moves
                    }
                    final long now = t;
                    long due = expected.stream().filter(o -> o.at() <= now).count();
                    until = System.nanoTime() + 200_000_000L;
                    while (out.size() < due && System.nanoTime() < until) {
                        buf.clear();
                        if (sink.receive(buf) == null) {
                            Thread.onSpinWait();
                            continue;
                        }
                        buf.flip();
                        for (SentEvents.Event e : SentEvents.of(buf)) {
                            out.add(new Out(e.variable(), e.sequence(), t));
                        }
                    }
                    clock.advance(STEP);
                }
            }
            return out;
        }
    }

    @Test
    void theRouterOnLoopbackSendsWhatTheBareAgentSendsInTheSameOrderWithinOneTick() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "epoll transport");
        List<In> in = input();
        List<Out> agent = agent(in, new ArrayList<>());
        assertSameDepartures(in, agent, routerOnLoopback(in, agent));
    }

    /** Everything leaves, in the same order from both, each of the router's within one tick of the agent's. */
    private static void assertSameDepartures(List<In> in, List<Out> agent, List<Out> router) {
        assertEquals(in.size(), agent.size(), "everything leaves: " + agent);
        assertEquals(agent.stream().map(o -> o.variable() + "/" + o.seq()).toList(),
                router.stream().map(o -> o.variable() + "/" + o.seq()).toList(), "the same departure sequence");
        for (int i = 0; i < agent.size(); i++) {
            long late = router.get(i).at() - agent.get(i).at();
            assertTrue(late >= -STEP && late <= LoopWakeups.TICK_NANOS + STEP,
                    "departure " + i + " " + agent.get(i) + ": the router sent it " + late + " ns after the agent");
        }
    }

    @Test
    void theRouterAndTheBareAgentSendTheSameEventsInTheSameOrderWithinOneTick() {
        List<In> in = input();
        List<Integer> routerDatagrams = new ArrayList<>();
        List<Integer> agentDatagrams = new ArrayList<>();
        List<Out> router = router(in, routerDatagrams);
        List<Out> agent = agent(in, agentDatagrams);
        assertEquals(agentDatagrams, routerDatagrams, "the same events packed together");
        assertTrue(agentDatagrams.stream().anyMatch(n -> n > 1), "some packed: " + agentDatagrams);
        assertSameDepartures(in, agent, router);
    }
}
