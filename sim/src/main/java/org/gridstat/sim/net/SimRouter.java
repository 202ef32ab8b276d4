package org.gridstat.sim.net;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.egress.DataPathAgent;
import org.gridstat.core.egress.EgressPump;
import org.gridstat.core.egress.WakeupService;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.QueueStatistics;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.FrameAdmission;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.sim.engine.EventLoop;

/**
 * A status router on simulated time: the router's own data path from core (its
 * {@link DataPathAgent}, {@link ForwardingEngine}, link schedulers, rate filters and
 * {@link EgressPump}s) behind a {@link WakeupService} that runs a duty cycle at exactly the time
 * asked, and transmitters that put datagrams on {@link SimLink}s. Ingress is core's too: each
 * datagram is walked with {@link DatagramReader} and each event admitted with
 * {@link FrameAdmission} (validation, hop limit, hop count stamped) before it is forwarded, in one
 * duty cycle per datagram, as a router reading one datagram per wake-up does.
 *
 * <p>A crash loses what the router holds; a restart brings it back empty, and its flows come back
 * when the broker installs them again.
 */
public final class SimRouter implements WakeupService {
    /** One out-link: its name (as flows name it), its scheduler's spec, the pump's datagram size, its link. */
    public record OutLink(String name, LinkSpec spec, int datagramBytes, SimLink link) {
    }

    private final String id;
    private final EventLoop loop;
    private final List<OutLink> outLinks;
    private final int maxFlowsPerLink;
    private final SourceTimeTrust trust;
    private final NanoClock mono;
    private final Clock epoch;
    private final EventReferences<SimPacket> references;
    private final DatagramReader reader = new DatagramReader();
    private final FrameAdmission admission = new FrameAdmission();
    private final Map<RejectReason, Long> rejected = new EnumMap<>(RejectReason.class);
    private final Map<Long, Long> refusedByVariable = new java.util.HashMap<>();
    private ForwardingEngine<SimPacket> engine;
    private DataPathAgent<SimPacket> agent;
    private SimTransmitter[] transmitters;
    /** The duty cycle the agent asked for. */
    private EventLoop.Timer wake;
    /** A duty cycle run now for the router's own reasons (a flow change, a drained link). */
    private EventLoop.Timer kick;
    private final EstimatorSettings estimator;
    private final Decisions decisions;
    /** Where its congestion notices go; {@code null}: it sends none. */
    private Advice advice;
    /** Its back-pressure, with congestion control and notices on; rebuilt with the engine. */
    private NoticeRelay relay;
    private boolean up = true;
    private boolean crashing;
    private long received;
    private long lostWhileDown;
    private long lostInCrash;
    private long cycles;

    /**
     * @param epochOffsetNanos how far the router's epoch clock is from true time
     */
    public SimRouter(String id, EventLoop loop, List<OutLink> outLinks, int maxFlowsPerLink, SourceTimeTrust trust,
                     long epochBaseNanos, long epochOffsetNanos, EventReferences<SimPacket> references) {
        this(id, loop, outLinks, maxFlowsPerLink, trust, epochBaseNanos, epochOffsetNanos, references, EstimatorSettings.DEFAULT,
                null);
    }

    /** A congestion notice a router sends: to the hop numbered {@code hop} ({@code FlowEntry.PUBLISHER}: the publisher). */
    @FunctionalInterface
    public interface Advice {
        void advise(String router, int hop, long variableId, int rateHz);
    }

    /** What a router's congestion control decided, when, on which out-link. */
    @FunctionalInterface
    public interface Decisions {
        void decided(String router, String link, long atNanos, Decision decision);
    }

    /**
     * @param estimator how the router estimates rates (and how often its congestion control runs)
     * @param decisions where the decisions of the thesis's bandwidth reassignment go, run on every
     *                  out-link; {@code null}: no congestion control, reservations as installed
     */
    public SimRouter(String id, EventLoop loop, List<OutLink> outLinks, int maxFlowsPerLink, SourceTimeTrust trust,
                     long epochBaseNanos, long epochOffsetNanos, EventReferences<SimPacket> references,
                     EstimatorSettings estimator, Decisions decisions) {
        this.id = id;
        this.estimator = estimator;
        this.decisions = decisions;
        this.loop = loop;
        this.outLinks = List.copyOf(outLinks);
        this.maxFlowsPerLink = maxFlowsPerLink;
        this.trust = trust;
        // What the router lets go of while it crashes is lost there: counted against each event's variable.
        this.references = new EventReferences<>() {
            @Override
            public void retain(SimPacket e) {
                references.retain(e);
            }

            @Override
            public void release(SimPacket e) {
                references.release(e);
                if (crashing) {
                    refused(e.variableId);
                }
            }
        };
        this.mono = loop::now;
        this.epoch = () -> epochBaseNanos + loop.now() + epochOffsetNanos;
        for (int i = 0; i < this.outLinks.size(); i++) {
            int link = i;
            this.outLinks.get(i).link().onRoom(() -> linkDrained(link));
        }
        start();
    }

    private void start() {
        engine = new ForwardingEngine<>(outLinks.stream().map(OutLink::spec).toList(), maxFlowsPerLink, references,
                estimator, trust, ForwardingEngine.DEFAULT_COMMAND_QUEUE, mono.nanoTime());
        relay = decisions != null && advice != null ? newRelay() : null;
        if (decisions != null) {
            engine.useCongestionControl(BandwidthReassignment::new, (link, d) -> {
                decisions.decided(id, outLinks.get(link).name(), loop.now(), d);
                if (relay != null) {
                    relay.decided(link, d);
                }
            });
        }
        transmitters = new SimTransmitter[outLinks.size()];
        List<EgressPump<SimPacket>> pumps = new ArrayList<>();
        for (int i = 0; i < outLinks.size(); i++) {
            OutLink l = outLinks.get(i);
            int link = i;
            transmitters[i] = new SimTransmitter(l.link(), l.datagramBytes(), references,
                    headers -> engine.chargeFraming(link, headers, loop.now()));
            pumps.add(new EgressPump<>(engine, i, transmitters[i], references, SimRouter::packedSize, null,
                    l.datagramBytes()));
        }
        agent = new DataPathAgent<>(engine, pumps, this, mono, epoch, DataPathAgent.DEFAULT_COMMANDS_PER_CYCLE,
                estimator.periodNanos());
    }

    /** An opaque datagram never shares a datagram: it is larger than any the pump packs. */
    private static int packedSize(SimPacket p) {
        return p.opaque() ? Integer.MAX_VALUE / 4 : p.length;
    }

    public String id() {
        return id;
    }

    /** The index of the out-link named {@code name}, or -1. */
    public int outLink(String name) {
        for (int i = 0; i < outLinks.size(); i++) {
            if (outLinks.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public List<OutLink> outLinks() {
        return outLinks;
    }

    /**
     * Sends congestion notices to {@code advice}, and takes them ({@link #noticed}): back-pressure,
     * with congestion control on. Before the first flow.
     */
    public void useNotices(Advice advice) {
        if (decisions == null) {
            throw new IllegalStateException("router " + id + ": notices need congestion control");
        }
        this.advice = advice;
        this.relay = newRelay();
    }

    private NoticeRelay newRelay() {
        return new NoticeRelay(engine, (hop, variable, rate) -> advice.advise(id, hop, variable, rate));
    }

    /**
     * A congestion notice from the next hop {@code from} (an out-link's name): send it at most
     * {@code rateHz} samples per second of the variable.
     *
     * @return what became of it ({@code null}: the router is down, or sends no notices)
     */
    public NoticeRelay.Verdict noticed(String from, long variableId, int rateHz) {
        int link = outLink(from);
        if (!up || relay == null) {
            return null;
        }
        return link < 0 ? NoticeRelay.Verdict.NOT_CARRIED : relay.noticed(link, variableId, rateHz);
    }

    /** The router's back-pressure, or {@code null}. */
    public NoticeRelay relay() {
        return relay;
    }

    /** Queues a flow change, as the control channel does, and runs a duty cycle now to apply it. */
    public boolean submit(FlowCommand command) {
        if (!up) {
            return false;
        }
        boolean queued = engine.submit(command);
        cycleNow();
        return queued;
    }

    /** A datagram arrives now, from a neighbour or a local publisher. */
    public void receive(SimDatagram d) {
        if (!up) {
            lostWhileDown += d.events;
            d.forEachVariable(this::refused);
            return;
        }
        agent.beginCycle();
        if (d.opaque != null) {
            received++;
            SimPacket p = d.opaque;
            references.retain(p);
            if (agent.forward(p.variableId, p.sourceTimeNanos, p.deadlineNanos, p, p.length) < 0) {
                refused(p.variableId);
            }
            references.release(p);
        } else {
            ByteBuffer buffer = ByteBuffer.wrap(d.bytes);
            RejectReason framing = reader.open(buffer, 0, d.length);
            if (framing != RejectReason.NONE) {
                received++;
                rejected.merge(framing, 1L, Long::sum);
            } else {
                while (reader.next()) {
                    received++;
                    int at = reader.eventOffset();
                    int length = reader.eventLength();
                    RejectReason reason = admission.admit(buffer, at, length);
                    if (reason != RejectReason.NONE) {
                        rejected.merge(reason, 1L, Long::sum);
                        continue;
                    }
                    ByteBuffer frame = ByteBuffer.allocate(length);
                    frame.put(0, d.bytes, at, length);
                    SimPacket p = SimPacket.frame(frame, length, admission.variableId(), 0, admission.sourceTimeNanos(),
                            admission.deadlineNanos());
                    references.retain(p);
                    if (agent.forward(p.variableId, p.sourceTimeNanos, p.deadlineNanos, p, length) < 0) {
                        refused(p.variableId); // no flow for it here, or a source time not trusted
                    }
                    references.release(p);
                }
            }
        }
        agent.doWork();
    }

    private void refused(long variableId) {
        refusedByVariable.merge(variableId, 1L, Long::sum);
    }

    /**
     * Events of {@code variableId} this router did not forward at all: it was down, had no flow for
     * the variable, or did not trust the event's source time; and those it held when it crashed.
     */
    public long refusedOf(long variableId) {
        return refusedByVariable.getOrDefault(variableId, 0L);
    }

    @Override
    public void wakeAt(long monoNanos) {
        if (wake != null) {
            if (wake.pending() && wake.at() == Math.max(monoNanos, loop.now())) {
                return;
            }
            wake.cancel();
            wake = null;
        }
        if (monoNanos != Long.MAX_VALUE && up) {
            wake = loop.at(monoNanos, this::cycle);
        }
    }

    private void cycle() {
        wake = null;
        runCycle();
    }

    private void runCycle() {
        cycles++;
        agent.beginCycle();
        agent.doWork();
    }

    /**
     * Runs a duty cycle now (after what is already due now), as a router does when a link drains,
     * leaving the wake-up the agent asked for in place: the agent asks again only when its wanted
     * time changes, so replacing it here would lose it, and a flow waiting for its tokens would
     * wait for the next datagram to arrive instead.
     */
    private void cycleNow() {
        if (up && (kick == null || !kick.pending())) {
            kick = loop.at(loop.now(), () -> {
                kick = null;
                runCycle();
            });
        }
    }

    private void linkDrained(int link) {
        if (up) {
            agent.linkWritable(link);
            cycleNow();
        }
    }

    /** The router stops: what it holds is lost, and it forwards nothing until {@link #restart}. */
    public void crash() {
        if (!up) {
            return;
        }
        up = false;
        if (wake != null) {
            wake.cancel();
            wake = null;
        }
        if (kick != null) {
            kick.cancel();
            kick = null;
        }
        long before = inFlightHere();
        crashing = true;
        for (SimTransmitter t : transmitters) {
            t.discard();
        }
        agent.close();
        crashing = false;
        lostInCrash += before;
    }

    /** The router starts again with no flows. */
    public void restart() {
        if (up) {
            return;
        }
        up = true;
        start();
    }

    public boolean up() {
        return up;
    }

    private long inFlightHere() {
        long n = 0;
        for (int i = 0; i < outLinks.size(); i++) {
            for (ServiceClass c : ServiceClass.values()) {
                QueueStatistics q = engine.statistics(i).serviceClass(c);
                n += q == null ? 0 : q.backlog();
            }
        }
        return n;
    }

    public ForwardingEngine<SimPacket> engine() {
        return engine;
    }

    public DataPathAgent<SimPacket> agent() {
        return agent;
    }

    public long received() {
        return received;
    }

    public Map<RejectReason, Long> rejected() {
        return Map.copyOf(rejected);
    }

    public long lostWhileDown() {
        return lostWhileDown;
    }

    public long lostInCrash() {
        return lostInCrash;
    }

    public long cycles() {
        return cycles;
    }
}
