package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.forward.EngineCounter;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowStatistics;
import org.gridstat.core.sched.QueueStatistics;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.statusrouter.api.CongestionDecision;
import org.gridstat.statusrouter.api.RouterCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The router's data path with congestion control on and off, on embedded channels and a manual
 * clock: one out-link of 10,000 B/s offered 12,000 B/s, an HRT flow surging to twice its 3,000 B/s
 * reservation and a best-effort flow at its own 6,000 B/s, both 60 Hz of 100-byte frames.
 */
class CongestionControlDataPathTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;
    private static final long PERIOD = 100 * MS;
    private static final long STEP = MS;
    private static final int FRAME = 100;
    private static final InetSocketAddress SENDER = new InetSocketAddress("127.0.0.1", 20001);
    private static final String[] LINKS = {"name=a address=127.0.0.1:21001 capacity=10000"};
    private static final String[] FLOWS = {
        "id=1 variable=1 link=a class=HRT assured=3000 minimum=2000 ceiling=8000 buffer=64 group=sub1",
        "id=2 variable=2 link=a class=BE assured=6000 minimum=1000 ceiling=6000 buffer=64 group=sub1"};

    private final ManualClock clock = new ManualClock(T0);
    private final List<ByteBuf> made = new ArrayList<>();
    private DataPath path;
    private EmbeddedChannel link;
    private EmbeddedChannel ingress;
    private DataPathCounters ingressCounters;

    private void wire(String congestionControl) {
        RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, LINKS, FLOWS, new String[0],
                PERIOD, 0.5, 64).withCongestionControl(congestionControl, new LocalCongestionControl());
        link = new EmbeddedChannel();
        link.freezeTime(); // moved with the manual clock
        path = new DataPath(s, link.eventLoop(), clock, clock, new DataPathCounters());
        link.pipeline().addLast(path.links[0]);
        path.links[0].attach(link);
        path.start();
        ingressCounters = new DataPathCounters();
        ingress = new EmbeddedChannel(new IngressHandler(new FrameIntake(path, ingressCounters)));
    }

    @AfterEach
    void allBuffersReturned() {
        if (path != null) {
            path.discard();
        }
        drainLink();
        for (ByteBuf b : made) {
            assertEquals(0, b.refCnt(), "every received buffer released");
        }
    }

    private void drainLink() {
        ByteBuf b;
        while (link != null && (b = link.readOutbound()) != null) {
            b.release();
        }
    }

    private ByteBuf frame(long variable, long seq, long sourceTime) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(2048);
        ByteBuffer nio = buf.internalNioBuffer(0, 2048);
        int len = new StatusEventEncoder().wrap(nio, nio.position()).variableId(variable).sequence(seq)
                .sourceTimeNanos(sourceTime).deadlineNanos(sourceTime + S).serviceClass(ServiceClass.BE)
                .rawPayloadLength(FRAME - 48).seal();
        assertEquals(FRAME, len);
        made.add(buf);
        return buf.writerIndex(len);
    }

    /** Both sources at 60 Hz for {@code millis}, time stepped by {@link #STEP}, the link drained as it sends. */
    private void run(long millis) {
        long end = clock.nanoTime() + millis * MS;
        long nextHrt = clock.nanoTime();
        long nextBe = clock.nanoTime();
        long seq = 0;
        while (clock.nanoTime() < end) {
            long now = clock.nanoTime();
            if (now >= nextHrt) {
                ingress.writeInbound(new DatagramPacket(frame(1, seq++, now), null, SENDER));
                nextHrt += S / 60;
            }
            if (now >= nextBe) {
                ingress.writeInbound(new DatagramPacket(frame(2, seq++, now), null, SENDER));
                nextBe += S / 60;
            }
            link.runScheduledPendingTasks();
            drainLink();
            clock.advance(STEP);
            link.advanceTimeBy(STEP, TimeUnit.NANOSECONDS);
        }
        link.runScheduledPendingTasks();
    }

    private RouterCounters counters() {
        return DataPathCounters.snapshot(List.of(ingressCounters), path);
    }

    private static Decision first(List<CongestionDecision> log, Decision.Kind kind, long flowId) {
        return log.stream().map(CongestionDecision::decision).filter(d -> d.kind() == kind && d.flowId() == flowId)
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " for flow " + flowId + " in " + log));
    }

    @Test
    void withCongestionControlOnTheBestEffortFlowLendsTheSurgingHrtFlowWithinOneEstimatorPeriod() {
        wire("on");
        run(PERIOD / MS / 2);
        RouterCounters before = counters();
        assertTrue(before.congestionControl());
        assertEquals(List.of(), before.recentDecisions(), "no demand estimated yet, no decision");
        assertEquals(3_000, before.links().get("a").flow(1).assuredRate());

        run(PERIOD / MS); // past the first estimator period
        RouterCounters c = counters();
        List<CongestionDecision> log = c.recentDecisions();
        Decision granted = first(log, Decision.Kind.GRANTED, 1);
        Decision lent = first(log, Decision.Kind.LENT, 2);
        assertEquals(ServiceClass.HRT, granted.flowClass());
        assertEquals(3_000, granted.fromRate());
        // 60 frames a second of 100 bytes and their 28 bytes of IP and UDP headers: 7,680 B/s on the wire
        // in steps of what the estimate can tell (one event a period: 1,280 B/s), up to the 8,000 B/s ceiling
        assertTrue(granted.toRate() >= 7_680 && granted.toRate() <= Math.min(8_000, 7_680 + 1_280),
                "granted its demand of 7,680 B/s on the wire: " + granted);
        assertEquals(1, lent.forFlowId(), "lent to the surging HRT flow");
        assertEquals(6_000, lent.fromRate());
        // the link's 1,000 B/s that no reservation holds is granted first, all but its headroom of
        // 10,000 / 32 = 312 B/s, which is granted only once the victims run out
        long spare = 1_000 - 10_000 / BandwidthReassignment.HEADROOM_DIVISOR;
        assertEquals(6_000 - (granted.toRate() - 3_000 - spare), lent.toRate(),
                "lent what was granted beyond the spare capacity less its headroom");
        assertTrue(log.stream().allMatch(d -> d.link().equals("a") && d.epochNanos() > T0), "" + log);
        for (int i = 1; i < log.size(); i++) {
            assertEquals(log.get(i - 1).sequence() + 1, log.get(i).sequence(), "numbered in order, without gaps");
        }

        FlowStatistics hrt = c.links().get("a").flow(1);
        FlowStatistics be = c.links().get("a").flow(2);
        assertEquals(3_000, hrt.reservedRate());
        assertEquals(granted.toRate(), hrt.assuredRate());
        assertEquals(6_000, be.reservedRate());
        assertTrue(be.assuredRate() < be.reservedRate(), "best effort lends: " + be);
        assertEquals(lent.toRate(), be.assuredRate());
        assertTrue(be.assuredRate() >= 1_000, "never below its minimum");
        assertTrue(c.engine().get(EngineCounter.RATES_REASSIGNED) >= 2);
        assertEquals(0, c.engine().get(EngineCounter.NEEDS_UNMET), "best effort covers the need");
    }

    /** The samples a flow report would carry now, made as the control channel makes them; ends the latency period. */
    private java.util.Map<Long, ControlMessage.FlowSample> report() {
        java.util.Map<Long, ControlMessage.FlowSample> out = new java.util.TreeMap<>();
        RouterReports.flowSamples(DataPathCounters.snapshot(List.of(ingressCounters), path, true), id -> true,
                path::reassignments).forEach(f -> out.put(f.flowId(), f));
        return out;
    }

    @Test
    void aFlowReportCarriesEachFlowsQueueingP99OverItsPeriodAndTheReassignmentsThatMovedItsRate() {
        wire("on");
        run(3 * PERIOD / MS); // the link offered 12,000 B/s of its 10,000: both flows queue
        RouterCounters c = counters(); // another reader first: it ends no period
        java.util.Map<Long, ControlMessage.FlowSample> first = report();
        for (long flow : new long[] {1, 2}) {
            ControlMessage.FlowSample f = first.get(flow);
            QueueStatistics q = c.links().get("a").flow(flow).queue();
            assertTrue(f.latencyP99Micros() >= 1_000, "queued at least a step of 1 ms under load: " + f);
            assertEquals((q.periodLatencyP99Nanos() + 999) / 1_000, f.latencyP99Micros(),
                    "the first report's period is the flow's life so far, in µs rounded up");
        }
        assertTrue(first.get(1L).reassignments() >= 1, "the HRT flow was granted: " + first.get(1L));
        assertTrue(first.get(2L).reassignments() >= 1, "best effort lent: " + first.get(2L));
        long granted = c.recentDecisions().stream().filter(d -> d.decision().flowId() == 1
                && d.decision().kind() != Decision.Kind.UNMET && d.decision().kind() != Decision.Kind.MET).count();
        assertEquals(granted, first.get(1L).reassignments(), "each decision that moved its rate, as the log lists them");
        assertEquals(counters().engine().get(EngineCounter.RATES_REASSIGNED),
                first.get(1L).reassignments() + first.get(2L).reassignments(), "every reassignment is one flow's");

        java.util.Map<Long, ControlMessage.FlowSample> again = report();
        assertEquals(0, again.get(1L).latencyP99Micros(), "nothing left since the last report: no latency in the period");
        assertEquals(first.get(1L).reassignments(), again.get(1L).reassignments(), "the count stays");
        run(PERIOD / MS);
        assertTrue(report().get(2L).latencyP99Micros() >= 1_000, "still queueing in the next period");
    }

    @Test
    void withCongestionControlOffTheSameSurgeMovesNoRate() {
        wire("off");
        run(3 * PERIOD / MS);
        RouterCounters c = counters();
        assertFalse(c.congestionControl());
        assertEquals(List.of(), c.recentDecisions());
        assertEquals(0, c.engine().get(EngineCounter.RATES_REASSIGNED));
        assertEquals(0, c.engine().get(EngineCounter.NEEDS_UNMET));
        FlowStatistics hrt = c.links().get("a").flow(1);
        assertTrue(hrt.queue().arrivalRate() > 1.5 * hrt.reservedRate(),
                "the HRT flow did surge past its reservation: " + hrt.queue().arrivalRate() + " B/s");
        for (FlowStatistics f : c.links().get("a").flows()) {
            assertEquals(f.reservedRate(), f.assuredRate(), "served as reserved: " + f);
        }
        assertNull(path.decisions);
        for (ControlMessage.FlowSample f : report().values()) {
            assertEquals(0, f.reassignments(), "no congestion control, no reassignment: " + f);
            assertTrue(f.latencyP99Micros() >= 1_000, "queueing is measured all the same: " + f);
        }
    }
}
