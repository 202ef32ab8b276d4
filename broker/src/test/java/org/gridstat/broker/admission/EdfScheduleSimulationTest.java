package org.gridstat.broker.admission;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.AdmissionResult.Rejected;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkScheduler;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.sched.Shaping;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * The deadline test checked against brute force: random flow sets on one link are admitted one
 * flow at a time, and what was admitted is run through core's real {@link LinkScheduler} on a
 * {@link ManualClock} in EDF's worst case, the synchronous release: every flow releases its first
 * event at 0, just after a best-effort frame as large as the test's blocking has gone on the wire,
 * and then at every point of its rate's grid. The link's pacer holds one frame (burst = one
 * maximum frame), so it is the wire: an event leaves when the previous one has been sent, and is
 * sent {@code ceil(bytes / bandwidth)} later. No admitted event may finish after its hop deadline
 * in the busy period. Sets built so the demand bound exceeds the interval by one nanosecond at one
 * deadline are refused, and miss that deadline when forced in; exactly at the boundary they are
 * admitted and meet it.
 *
 * <p>The topology is a -> b with no delay, a with a 1 ms queueing budget and b with none, so a
 * subscription's whole latency bound is its hop deadline on the link. The path costs a's queueing
 * budget and the frame's transmission at the link's bandwidth: a bound below that is refused before
 * the deadline test is asked, so every flow here is due no sooner.
 */
class EdfScheduleSimulationTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /** One flow: its class, frame bytes, whole rate in Hz and hop deadline (its latency bound). */
    record Flow(ServiceClass serviceClass, int frameBytes, int rateHz, long deadlineNanos) {
        int wireBytes() {
            return frameBytes + SubscriptionRequest.PACKET_OVERHEAD;
        }
    }

    /** An event of the simulation; {@code flow} -1 for the blocking frame. */
    record Job(int flow, long release, long deadline, int bytes) {
    }

    /** An event that finished after its hop deadline. */
    record Miss(Job job, long finished) {
    }

    private static Topology oneLink(long bandwidth, Map<ServiceClass, Integer> shares) {
        return Topology.builder().router("a", 1_000_000_000L, MS, "").router("b", 1_000_000_000L, 0, "")
                .link("a", "b", bandwidth, 0, shares).build();
    }

    private static SubscriptionRequest request(int i, Flow f) {
        return new SubscriptionRequest(i + 1, VariableId.of(i + 1), "a", "b", f.frameBytes(), QosSpec.builder()
                .rateHz(f.rateHz()).latencyBound(Duration.ofNanos(f.deadlineNanos())).serviceClass(f.serviceClass())
                .build());
    }

    /** Admits the flows one by one; the first refusal, or null if all were admitted. */
    private static Rejected admit(AdmissionController ac, List<Flow> flows) {
        for (int i = 0; i < flows.size(); i++) {
            AdmissionResult r = ac.admit(request(i, flows.get(i)));
            if (r instanceof Rejected no) {
                return no;
            }
            Admitted yes = (Admitted) r;
            assertEquals(flows.get(i).deadlineNanos(), yes.paths().get(0).get(0).budgetNanos(), "the bound is the hop's");
        }
        return null;
    }

    /** The instant of point {@code k} of a whole rate's second-aligned grid. */
    private static long gridPoint(int rateHz, long k) {
        long second = k / rateHz;
        long j = k % rateHz;
        return second * S + (j * S + rateHz - 1) / rateHz;
    }

    /**
     * Runs the synchronous busy period of {@code flows} through a link scheduler of the link's
     * bandwidth and class shares, after {@code blockingBytes} of best effort sent at 0; returns the
     * events that finished late.
     */
    static List<Miss> simulate(Link link, List<Flow> flows, long blockingBytes) {
        long bandwidth = link.bandwidth();
        Map<ServiceClass, Shaping> shares = new EnumMap<>(ServiceClass.class);
        for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE}) {
            shares.put(c, Shaping.of(link.classCapacity(c), bandwidth));
        }
        LinkSpec spec = LinkSpec.of(bandwidth, LinkSpec.MAX_FRAME_BYTES, shares, LinkSpec.DEFAULT_CONTROL_BUFFER);
        ManualClock clock = new ManualClock(0);
        List<Job> dropped = new ArrayList<>();
        LinkScheduler<Job> scheduler = new LinkScheduler<>(spec, flows.size() + 1, dropped::add,
                new EstimatorSettings(S, 0.5), clock.nanoTime());
        int[] slots = new int[flows.size()];
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            long assured = (long) f.wireBytes() * f.rateHz(); // what admission reserves
            slots[i] = scheduler.addFlow(FlowSpec.of(i + 1, f.serviceClass(), assured, 0, 2 * assured, 65_536, ""),
                    clock.nanoTime());
        }
        int bestEffort = scheduler.addFlow(FlowSpec.of(0, ServiceClass.BE, 1, 0, bandwidth, 4, ""), clock.nanoTime());

        List<Miss> misses = new ArrayList<>();
        Job blocker = new Job(-1, 0, Long.MAX_VALUE, (int) blockingBytes);
        assertTrue(scheduler.enqueue(bestEffort, blocker, blocker.bytes(), Long.MAX_VALUE, Long.MAX_VALUE, 0));
        assertSame(blocker, scheduler.dequeue(0), "the best-effort frame goes first");
        long wireFree = sendTime(blocker.bytes(), bandwidth);

        long[] next = new long[flows.size()];
        long[] released = new long[flows.size()];
        long events = 0;
        while (true) {
            long now = clock.nanoTime();
            for (int i = 0; i < flows.size(); i++) {
                while (next[i] <= now) {
                    Flow f = flows.get(i);
                    long due = f.serviceClass() == ServiceClass.BE ? Long.MAX_VALUE : next[i] + f.deadlineNanos(); // BE: none
                    Job j = new Job(i, next[i], due, f.wireBytes());
                    // the frame; its datagram's headers are charged when it leaves, as a pump does
                    assertTrue(scheduler.enqueue(slots[i], j, f.frameBytes(), j.deadline(), Long.MAX_VALUE, now), "buffer");
                    next[i] = gridPoint(f.rateHz(), ++released[i]);
                    events++;
                }
            }
            Job sent;
            while ((sent = scheduler.dequeue(now)) != null) {
                scheduler.chargeDatagram(SubscriptionRequest.PACKET_OVERHEAD, 1, now);
                assertTrue(now >= wireFree, "the pacer lets a frame go only once the wire is free");
                wireFree = now + sendTime(sent.bytes(), bandwidth);
                if (wireFree > sent.deadline()) {
                    misses.add(new Miss(sent, wireFree));
                }
            }
            long nextRelease = Long.MAX_VALUE;
            for (long r : next) {
                nextRelease = Math.min(nextRelease, r);
            }
            if (scheduler.backlog() == 0 && nextRelease >= wireFree) {
                break; // the busy period is over
            }
            assertTrue(events < 2_000_000, "the busy period should end");
            long wake = scheduler.backlog() == 0 ? Long.MAX_VALUE : scheduler.nextWakeNanos(now);
            clock.set(Math.max(now + 1, Math.min(wake, nextRelease)));
        }
        assertTrue(dropped.isEmpty(), "nothing expires: " + dropped);
        return misses;
    }

    private static long sendTime(long bytes, long bandwidth) {
        return (bytes * S + bandwidth - 1) / bandwidth;
    }

    private static Map<ServiceClass, Integer> shares(int hrt, int lrt, int be) {
        Map<ServiceClass, Integer> m = new EnumMap<>(ServiceClass.class);
        m.put(ServiceClass.HRT, hrt);
        m.put(ServiceClass.LRT, lrt);
        m.put(ServiceClass.BE, be);
        return m;
    }

    /**
     * Random links and flows (HRT, LRT and some BE), added until admission refuses one: the flows
     * admitted before it, the set nearest the boundary, are simulated and must meet every deadline.
     * A flow's deadline is at least its path's cost, so that only the class's bandwidth or the
     * deadline test refuses.
     */
    @Test
    void whatIsAdmittedMeetsEveryDeadlineInTheSynchronousBusyPeriod() {
        long seed = Long.getLong("edf.seed", System.nanoTime());
        Random random = new Random(seed);
        int sets = 400;
        int refusedByDeadlines = 0;
        int refusedAndMissing = 0;
        long flowsSimulated = 0;
        for (int set = 0; set < sets; set++) {
            long bandwidth = 50_000 + random.nextInt(2_000_000);
            int hrt = random.nextInt(4) == 0 ? 100 : 10 + random.nextInt(70);
            int lrt = hrt == 100 ? 0 : 10 + random.nextInt(90 - hrt);
            Topology t = oneLink(bandwidth, shares(hrt, lrt, 100 - hrt - lrt));
            Link link = t.link("a", "b");
            AdmissionController ac = new AdmissionController(t);
            List<Flow> flows = new ArrayList<>();
            Rejected refused = null;
            while (refused == null && flows.size() < 40) {
                ServiceClass c = lrt == 0 || random.nextBoolean() ? ServiceClass.HRT
                        : random.nextInt(5) == 0 ? ServiceClass.BE : ServiceClass.LRT;
                int rate = 1 + random.nextInt(random.nextBoolean() ? 10 : 120);
                int frame = 48 + random.nextInt(1425);
                long least = MS + link.minTransitNanos(frame + SubscriptionRequest.PACKET_OVERHEAD); // the path's cost
                long deadline = least + (long) (random.nextDouble() * random.nextDouble() * 3 * S / rate);
                Flow f = new Flow(c, frame, rate, deadline);
                refused = ac.admit(request(flows.size(), f)) instanceof Rejected no ? no : null;
                if (refused == null) {
                    flows.add(f);
                } else if (refused.reason().startsWith("link a->b, ")) {
                    refusedByDeadlines++;
                    List<Flow> forced = new ArrayList<>(flows);
                    forced.add(f);
                    if (!simulate(link, forced, HopDeadlineTest.blockingBytes(link)).isEmpty()) {
                        refusedAndMissing++;
                    }
                }
            }
            List<Miss> misses = simulate(link, flows, HopDeadlineTest.blockingBytes(link));
            flowsSimulated += flows.size();
            int s = set;
            assertTrue(misses.isEmpty(), () -> "seed " + seed + " (-Dedf.seed=" + seed + "), set " + s + ": " + bandwidth
                    + " B/s, shares " + hrt + "/" + lrt + ", " + flows + ": admitted, yet " + misses.size()
                    + " events late, the first " + misses.get(0));
        }
        System.out.printf("seed %d: %d sets, %d flows admitted and simulated; %d refused by the deadline test,"
                + " %d of them late when forced in%n", seed, sets, flowsSimulated, refusedByDeadlines, refusedAndMissing);
        assertTrue(refusedByDeadlines > sets / 4, "most sets end on the deadline test, not bandwidth: " + refusedByDeadlines);
    }

    /**
     * HRT with the whole link as its share, so the test's times are the wire's: n flows whose
     * periods are longer than the busy period, with deadlines one after the other, each leaving room
     * for the flows due before it and the blocking, the last exactly enough (admitted, and met) or
     * one nanosecond short (refused, and missed by one nanosecond when forced in). No deadline is
     * below its path's cost (a's 1 ms queueing budget and the frame's transmission), which the bound
     * check would refuse before the deadline test is asked. A flow raised to that cost may be due
     * after flows that follow it: the demand at each deadline still fits (it is at most the
     * blocking and the frames up to the latest flow due by then, which that flow's deadline
     * covers), and every flow is due before the last one's deadline.
     */
    @Test
    void aSetOneNanosecondOverTheBoundaryIsRefusedAndMissesWhenForcedIn() {
        long seed = Long.getLong("edf.seed", System.nanoTime());
        Random random = new Random(seed);
        int tries = 0;
        for (int set = 0; set < 200; set++) {
            assertTrue(++tries < 10_000, "seed " + seed + ": sets to build");
            long bandwidth = 100_000 + random.nextInt(1_900_000);
            Topology t = oneLink(bandwidth, shares(100, 0, 0));
            Link link = t.link("a", "b");
            long blocking = HopDeadlineTest.nanos(HopDeadlineTest.blockingBytes(link), bandwidth);
            int n = 1 + random.nextInt(8);
            int[] frames = new int[n];
            long[] cost = new long[n];
            long[] least = new long[n];
            for (int i = 0; i < n; i++) {
                frames[i] = 48 + random.nextInt(1425);
                cost[i] = HopDeadlineTest.nanos(frames[i] + SubscriptionRequest.PACKET_OVERHEAD, bandwidth);
                least[i] = MS + link.minTransitNanos(frames[i] + SubscriptionRequest.PACKET_OVERHEAD); // the path's cost
            }
            // Flow i is due once the blocking and flows 0..i are sent, plus less than half of flow i+1's time.
            long[] due = new long[n];
            long sum = blocking;
            for (int i = 0; i < n; i++) {
                sum += cost[i];
                due[i] = Math.max(least[i], sum + (i + 1 < n ? random.nextLong(cost[i + 1] / 2) : 0));
            }
            long boundary = sum; // blocking + every frame
            boolean roomForTheLast = true;
            for (int i = 0; i < n - 1; i++) {
                roomForTheLast &= due[i] <= boundary - 1;
            }
            if (boundary <= least[n - 1] + 1 || !roomForTheLast) {
                set--; // too short a busy period for the last one's least bound, or no room for its deadline
                continue;
            }
            int rate = (int) Math.max(1, Math.min(1000, S / (boundary * 2)));
            String where = "seed " + seed + " (-Dedf.seed=" + seed + "), set " + set + ", " + bandwidth + " B/s";
            for (long over : new long[] {0, 1}) {
                List<Flow> flows = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    flows.add(new Flow(ServiceClass.HRT, frames[i], rate, i == n - 1 ? boundary - over : due[i]));
                }
                Rejected refused = admit(new AdmissionController(t), flows);
                List<Miss> misses = simulate(link, flows, HopDeadlineTest.blockingBytes(link));
                if (over == 0) {
                    assertNull(refused, where + ": at the boundary " + flows);
                    assertEquals(List.of(), misses, where);
                } else {
                    assertNotNull(refused, where + ": one nanosecond over " + flows);
                    String[] d = HopDeadlineTest.durations(boundary - 1, boundary);
                    assertEquals("link a->b, HRT: in the first " + d[0] + " after a busy period starts the flows need "
                            + d[1] + " of transmission, more than " + d[0] + " (at the class's "
                            + String.format("%.1f", bandwidth * 8 / 1000.0) + " kbit/s, after "
                            + HopDeadlineTest.durations(blocking, 0)[0] + " for a frame already on the wire)",
                            refused.reason(), where);
                    assertEquals(1, misses.size(), where + ": " + misses);
                    assertEquals(n - 1, misses.get(0).job().flow(), where);
                    assertEquals(boundary, misses.get(0).finished(), where);
                }
            }
        }
    }
}
