package org.gridstat.core.egress;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
import org.gridstat.core.time.ManualClock;

/**
 * A data-path agent with fake transmitters and exact wake-ups on a manual clock, stepped by hand
 * as Aeron's sender tests step theirs: advance, run a cycle, assert what was sent and when.
 */
final class AgentHarness {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;
    static final long T0 = 1_790_000_000L * S;

    /** A sent event: its name and the monotonic time it was written. */
    record Sent(String event, long at) {
    }

    /**
     * Records what it is given, datagram by datagram; refuses writes after {@code room} datagrams
     * until opened again. HRT and LRT travel on lane 1 when {@code priorityLane} is set.
     */
    final class FakeTransmitter implements Transmitter<String> {
        final List<Sent> sent = new ArrayList<>();
        final List<List<String>> datagrams = new ArrayList<>();
        final List<Integer> datagramLanes = new ArrayList<>();
        private List<String> open = new ArrayList<>();
        private int openLane = -1;
        int room = Integer.MAX_VALUE;
        int flushes;
        boolean priorityLane;

        @Override
        public boolean writable() {
            return room > 0;
        }

        @Override
        public int lane(ServiceClass flowClass) {
            return priorityLane && (flowClass == ServiceClass.HRT || flowClass == ServiceClass.LRT) ? 1 : 0;
        }

        @Override
        public void write(String event) {
            write(event, 0);
        }

        @Override
        public void write(String event, int lane) {
            if (openLane >= 0 && openLane != lane) {
                throw new AssertionError("one datagram, two lanes: " + openLane + " and " + lane);
            }
            openLane = lane;
            open.add(event);
            sent.add(new Sent(event, clock.nanoTime()));
            written.add(event);
        }

        @Override
        public void endDatagram() {
            if (open.isEmpty()) {
                throw new AssertionError("an empty datagram was ended");
            }
            room--;
            datagrams.add(open);
            datagramLanes.add(openLane);
            open = new ArrayList<>();
            openLane = -1;
        }

        @Override
        public void flush() {
            flushes++;
        }
    }

    /** Remembers the one wake-up asked for. */
    static final class ExactWakeups implements WakeupService {
        long requested = Long.MAX_VALUE;
        int calls;

        @Override
        public void wakeAt(long monoNanos) {
            requested = monoNanos;
            calls++;
        }
    }

    static final class NoReferences implements EventReferences<String> {
        final List<String> released = new ArrayList<>();

        @Override
        public void retain(String event) {
        }

        @Override
        public void release(String event) {
            released.add(event);
        }
    }

    final ManualClock clock = new ManualClock(T0);
    final NoReferences refs = new NoReferences();
    final ExactWakeups wakeups = new ExactWakeups();
    final List<FakeTransmitter> links = new ArrayList<>();
    /** Every event any link wrote, in the order written. */
    final List<String> written = new ArrayList<>();
    final ForwardingEngine<String> engine;
    final DataPathAgent<String> agent;

    AgentHarness(LinkSpec... specs) {
        this(null, specs);
    }

    AgentHarness(LinkEmulator emulator, LinkSpec... specs) {
        this(emulator, EgressPump.DEFAULT_MTU, specs);
    }

    AgentHarness(LinkEmulator emulator, int mtu, LinkSpec... specs) {
        engine = new ForwardingEngine<>(List.of(specs), 2048, refs, EstimatorSettings.DEFAULT, SourceTimeTrust.DEFAULT,
                4096, clock.nanoTime());
        List<EgressPump<String>> pumps = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            FakeTransmitter t = new FakeTransmitter();
            links.add(t);
            pumps.add(new EgressPump<>(engine, i, t, refs, e -> 260, i == 0 ? emulator : null, mtu));
        }
        agent = new DataPathAgent<>(engine, pumps, wakeups, clock, clock, 64, S);
    }

    /** A link of {@code capacity} B/s with a burst of {@code burst} bytes; every class may use all of it. */
    static LinkSpec link(long capacity, long burst) {
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        shares.put(ServiceClass.HRT, Shaping.of(capacity / 2, capacity));
        shares.put(ServiceClass.LRT, Shaping.of(capacity * 3 / 10, capacity));
        shares.put(ServiceClass.BE, Shaping.of(capacity / 5, capacity));
        return LinkSpec.of(capacity, burst, shares, LinkSpec.DEFAULT_CONTROL_BUFFER);
    }

    void install(long flowId, long variable, int link, ServiceClass c, int buffer) {
        install(new FlowEntry(1, variable, link, FlowSpec.of(flowId, c, 1_000_000, 0, 1_000_000_000, buffer, ""),
                new long[0], 0, 0));
    }

    void install(FlowEntry e) {
        engine.submit(FlowCommand.install(e));
        cycle();
    }

    /** One duty cycle now, with these events as its input (variable, name) pairs. */
    void cycle(Object... variableAndName) {
        agent.beginCycle();
        for (int i = 0; i < variableAndName.length; i += 2) {
            agent.forward((Long) variableAndName[i], clock.nanos(), clock.nanos() + S, (String) variableAndName[i + 1], 260);
        }
        agent.doWork();
    }

    /** Runs the wake-ups the agent asks for, exactly on time, until {@code until} (monotonic). */
    void runUntil(long until) {
        while (wakeups.requested <= until) {
            long at = wakeups.requested;
            if (at > clock.nanoTime()) {
                clock.advance(at - clock.nanoTime());
            }
            wakeups.requested = Long.MAX_VALUE;
            cycle();
        }
        if (until > clock.nanoTime()) {
            clock.advance(until - clock.nanoTime());
        }
    }
}
