package org.gridstat.broker.install;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.install.FlowPlanner.Change;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

class FlowPlannerTest {
    private static final long MS = 1_000_000L;

    private final Topology topology = Topology.builder().router("r1", 100_000).router("r2", 100_000)
            .router("r3", 100_000).router("r4", 100_000)
            .between("r1", "r2", 12_500_000, 2 * MS, Topology.Builder.defaultShares())
            .between("r1", "r3", 12_500_000, 2 * MS, Topology.Builder.defaultShares())
            .between("r2", "r4", 12_500_000, 2 * MS, Topology.Builder.defaultShares())
            .between("r3", "r4", 12_500_000, 2 * MS, Topology.Builder.defaultShares()).build();
    private final AdmissionController admission = new AdmissionController(topology);
    private final FlowPlanner planner = new FlowPlanner();

    private static SubscriptionRequest request(long id, String to, String link, int hz, int paths, ServiceClass c) {
        return new SubscriptionRequest(id, VariableId.of(9), "r1", to, 260, QosSpec.builder().rateHz(hz)
                .latencyBound(Duration.ofMillis(100)).paths(paths).serviceClass(c).build(), link,
                SampleGrid.ofRate(60).intervalNanos());
    }

    private List<Change> subscribe(SubscriptionRequest r) {
        return planner.add(r, (Admitted) admission.admit(r));
    }

    private static List<InstallFlow> flowsOf(FlowPlanner planner, String router) {
        return planner.flows().getOrDefault(router, List.of());
    }

    private static InstallFlow only(List<InstallFlow> flows, String link) {
        List<InstallFlow> l = flows.stream().filter(f -> f.link().equals(link)).toList();
        assertEquals(1, l.size(), "one flow on " + link + ": " + flows);
        return l.get(0);
    }

    @Test
    void aFlowCarriesItsClasssMinimumRateAndCeilingAndItsVariablesCorrelationGroup() {
        FlowRates rates = FlowRates.DEFAULT.with(ServiceClass.BE, 0.115, 3.0);
        FlowPlanner p = new FlowPlanner(0, rates, id -> id == 9 ? "substationA" : "");
        p.add(request(1, "r2", "sub-a", 20, 1, ServiceClass.BE), (Admitted) admission.admit(request(1, "r2", "sub-a", 20, 1,
                ServiceClass.BE)));
        FlowSpec be = only(flowsOf(p, "r1"), "r2").spec();
        assertEquals(288 * 20, be.assuredRate());
        assertEquals((long) Math.floor(288 * 20 * 0.115), be.minimumRate(), "MR: 11.5 % of the reservation");
        assertEquals(288 * 20 * 3, be.ceilingRate());
        assertEquals("substationA", be.correlationGroup(), "victims are chosen by it");
        assertEquals(1_000, FlowRates.DEFAULT.minimumOf(ServiceClass.HRT, 1_000), "an HRT flow keeps all it was assured");
        assertEquals(500, FlowRates.DEFAULT.minimumOf(ServiceClass.LRT, 1_000));
        assertEquals(2_000, FlowRates.DEFAULT.ceilingOf(ServiceClass.BE, 1_000));
        assertThrows(IllegalArgumentException.class, () -> FlowRates.DEFAULT.with(ServiceClass.LRT, 1.5, 2.0));
        assertThrows(IllegalArgumentException.class, () -> FlowRates.DEFAULT.with(ServiceClass.LRT, 0.5, 0.5));
    }

    @Test
    void eachFlowNamesTheHopsItsEventsComeFromThePublisherAtTheFirstRouterAndThePreviousRoutersAfterIt() {
        org.gridstat.core.model.Endpoint r1 = org.gridstat.core.model.Endpoint.parse("127.0.0.1:7001");
        FlowPlanner p = new FlowPlanner(0, FlowRates.DEFAULT, id -> "", id -> id.equals("r1") ? r1 : null);
        SubscriptionRequest two = request(1, "r4", "sub-a", 20, 2, ServiceClass.BE);
        p.add(two, (Admitted) admission.admit(two));
        assertEquals(List.of(InstallFlow.class.cast(only(flowsOf(p, "r1"), "r2")).upstream().get(0)),
                List.of(org.gridstat.core.control.ControlMessage.Upstream.PUBLISHER));
        assertEquals(List.of(org.gridstat.core.control.ControlMessage.Upstream.PUBLISHER), only(flowsOf(p, "r1"), "r3").upstream());
        assertEquals(List.of(new org.gridstat.core.control.ControlMessage.Upstream("r1", r1)),
                only(flowsOf(p, "r2"), "r4").upstream(), "r1's address, where r2's notices for the variable go");
        assertEquals(List.of(new org.gridstat.core.control.ControlMessage.Upstream("r2", null),
                        new org.gridstat.core.control.ControlMessage.Upstream("r3", null)),
                only(flowsOf(p, "r4"), "sub-a").upstream(), "the two disjoint paths meet at r4: both previous routers,"
                        + " addresses not known");
    }

    @Test
    void subscriptionsSharingALinkShareOneFlowWithTheirIntervalsAndTheHighestRate() {
        subscribe(request(1, "r2", "sub-a", 60, 1, ServiceClass.LRT));
        List<Change> second = subscribe(request(2, "r2", "sub-b", 20, 1, ServiceClass.HRT));
        assertEquals(2, second.size(), "the shared r1 flow changes and r2 gets a new flow: " + second);

        InstallFlow shared = only(flowsOf(planner, "r1"), "r2");
        assertEquals(2, shared.version());
        assertArrayEquals(new long[] {SampleGrid.ofRate(60).intervalNanos(), SampleGrid.ofRate(20).intervalNanos()},
                shared.intervalsNanos());
        assertEquals(288 * 60, shared.spec().assuredRate(), "the highest rate, not the sum");
        assertEquals(ServiceClass.HRT, shared.spec().serviceClass(), "the most urgent class");
        var r1r2 = topology.link("r1", "r2");
        assertEquals(288 * 60, admission.installed(r1r2, ServiceClass.HRT), "admission counts the flow in its class");
        assertEquals(288 * 60, admission.reserved(r1r2, ServiceClass.HRT));
        assertEquals(0, admission.installed(r1r2, ServiceClass.LRT));
        assertEquals(288 * 60, admission.reserved(r1r2, ServiceClass.LRT), "what the flow needs in LRT once the HRT"
                + " subscriber leaves stands by");
        assertEquals(SampleGrid.ofRate(60).intervalNanos(), shared.publisherIntervalNanos());
        assertEquals(2, flowsOf(planner, "r2").size());
        assertArrayEquals(new long[] {SampleGrid.ofRate(20).intervalNanos()}, only(flowsOf(planner, "r2"), "sub-b").intervalsNanos());

        List<Change> leave = planner.remove(1);
        assertEquals(2, leave.size(), leave.toString());
        Change removal = leave.stream().filter(Change::isRemoval).findFirst().orElseThrow();
        assertEquals("r2", removal.router());
        InstallFlow after = only(flowsOf(planner, "r1"), "r2");
        assertEquals(3, after.version());
        assertEquals(shared.spec().flowId(), after.spec().flowId(), "a flow keeps its id");
        assertArrayEquals(new long[] {SampleGrid.ofRate(20).intervalNanos()}, after.intervalsNanos());
        assertEquals(288 * 20, after.spec().assuredRate());

        List<Change> last = planner.remove(2);
        assertTrue(last.stream().allMatch(Change::isRemoval));
        assertTrue(flowsOf(planner, "r1").isEmpty());
        assertTrue(flowsOf(planner, "r2").isEmpty());
        assertEquals(List.of(), planner.remove(2), "removing twice changes nothing");
    }

    @Test
    void twoPathsFanOutAtThePublisherAndMeetInOneDeliveryFlow() {
        subscribe(request(1, "r4", "cc", 30, 2, ServiceClass.HRT));
        List<InstallFlow> atR1 = flowsOf(planner, "r1");
        assertEquals(2, atR1.size(), "one flow per path at the publisher's router");
        assertEquals(1, flowsOf(planner, "r2").size());
        assertEquals(1, flowsOf(planner, "r3").size());
        InstallFlow delivery = only(flowsOf(planner, "r4"), "cc");
        assertEquals(0, delivery.downstreamBudgetNanos(), "the last hop has nothing after it");
        for (InstallFlow f : atR1) {
            assertTrue(f.downstreamBudgetNanos() > 0, "budget left for the rest of the path");
        }
    }

    /**
     * A line r1 -> r2 -> r3 -> r4 whose links differ in delay and bandwidth. A 260-byte frame takes
     * 288 bytes on the wire (IPv4 and UDP headers), so its least time over each link is:
     * r1->r2: 3 ms + 288 B / 1,250,000 B/s = 3,000,000 + 230,400 ns = 3,230,400 ns
     * r2->r3: 1 ms + 288 B / 700,000 B/s = 1,000,000 + 411,428 ns (411,428.57 rounded down) = 1,411,428 ns
     * r3->r4: 5 ms + 288 B / 12,500,000 B/s = 5,000,000 + 23,040 ns = 5,023,040 ns
     */
    private static Topology line() {
        return Topology.builder().router("r1", 100_000).router("r2", 100_000).router("r3", 100_000).router("r4", 100_000)
                .between("r1", "r2", 1_250_000, 3 * MS, Topology.Builder.defaultShares())
                .between("r2", "r3", 700_000, 1 * MS, Topology.Builder.defaultShares())
                .between("r3", "r4", 12_500_000, 5 * MS, Topology.Builder.defaultShares()).build();
    }

    private static final long R1_R2 = 3_230_400L;
    private static final long R2_R3 = 1_411_428L;
    private static final long R3_R4 = 5_023_040L;

    /**
     * A hop's rest starts when the event leaves: its own link and every later one. r1: 3,230,400 +
     * 1,411,428 + 5,023,040 = 9,664,868 ns; r2: 1,411,428 + 5,023,040 = 6,434,468 ns; r3: 5,023,040 ns.
     */
    @Test
    void eachHopCarriesTheLeastDelayOfItsOwnLinkAndTheLinksAfterIt() {
        AdmissionController line = new AdmissionController(line());
        FlowPlanner p = new FlowPlanner();
        SubscriptionRequest r = request(1, "r4", "cc", 60, 1, ServiceClass.HRT);
        p.add(r, (Admitted) line.admit(r));

        assertEquals(R1_R2 + R2_R3 + R3_R4, only(flowsOf(p, "r1"), "r2").minRestDelayNanos(), "r1->r2 itself is counted");
        assertEquals(9_664_868L, R1_R2 + R2_R3 + R3_R4);
        assertEquals(R2_R3 + R3_R4, only(flowsOf(p, "r2"), "r3").minRestDelayNanos());
        assertEquals(6_434_468L, R2_R3 + R3_R4);
        assertEquals(R3_R4, only(flowsOf(p, "r3"), "r4").minRestDelayNanos(), "the last link, nothing after it");
        assertEquals(0, only(flowsOf(p, "r4"), "cc").minRestDelayNanos(), "the subscriber's link is not in the topology");
    }

    @Test
    void aFlowSharedBySubscriptionsTakesTheShortestRestDelayAndGivesItBackWhenTheNearOneLeaves() {
        AdmissionController line = new AdmissionController(line());
        FlowPlanner p = new FlowPlanner();
        SubscriptionRequest far = request(1, "r4", "cc", 60, 1, ServiceClass.HRT);
        SubscriptionRequest near = request(2, "r3", "local", 20, 1, ServiceClass.HRT);
        p.add(far, (Admitted) line.admit(far));
        List<Change> joined = p.add(near, (Admitted) line.admit(near));

        InstallFlow shared = only(flowsOf(p, "r1"), "r2");
        // the near subscriber's rest, r1->r2 and r2->r3: 3,230,400 + 1,411,428 = 4,641,828 ns
        assertEquals(R1_R2 + R2_R3, shared.minRestDelayNanos(), "the near subscriber's rest, r1->r2 and r2->r3");
        assertEquals(2, shared.version());
        assertEquals(R2_R3, only(flowsOf(p, "r2"), "r3").minRestDelayNanos(), "r2->r3 is the near subscriber's last link");
        assertEquals(R3_R4, only(flowsOf(p, "r3"), "r4").minRestDelayNanos(), "r3->r4 is the far one's last link");
        assertEquals(0, only(flowsOf(p, "r3"), "local").minRestDelayNanos());
        assertEquals(3, joined.size(), "r1's and r2's flows change, r3 gets its delivery flow: " + joined);

        p.remove(2);
        InstallFlow alone = only(flowsOf(p, "r1"), "r2");
        assertEquals(R1_R2 + R2_R3 + R3_R4, alone.minRestDelayNanos());
        assertEquals(3, alone.version());
        assertEquals(R2_R3 + R3_R4, only(flowsOf(p, "r2"), "r3").minRestDelayNanos());
    }

    @Test
    void aSegmentsRestDelayGrowsByWhatFollowsItAndTwoPathsMeetingKeepTheShorter() {
        AdmissionController line = new AdmissionController(line());
        FlowPlanner p = new FlowPlanner();
        SubscriptionRequest r = request(1, "r3", "to-east", 60, 1, ServiceClass.HRT);
        p.add(r, ((Admitted) line.admit(r)).followedBy(4 * MS, 2_500_000));
        // r1: 3,230,400 + 1,411,428 + 2,500,000 = 7,141,828 ns; r2: 1,411,428 + 2,500,000 = 3,911,428 ns
        assertEquals(R1_R2 + R2_R3 + 2_500_000, only(flowsOf(p, "r1"), "r2").minRestDelayNanos());
        assertEquals(R2_R3 + 2_500_000, only(flowsOf(p, "r2"), "r3").minRestDelayNanos());
        assertEquals(2_500_000, only(flowsOf(p, "r3"), "to-east").minRestDelayNanos());
        assertEquals(4 * MS, only(flowsOf(p, "r3"), "to-east").downstreamBudgetNanos());

        // in the diamond, two paths of 2 ms links at 12.5 MB/s meet at r4: a link takes
        // 2,000,000 + 23,040 ns, so each hop from r1 has its own link and one after it,
        // 2 x 2,023,040 = 4,046,080 ns, and each hop into r4 its own link
        subscribe(request(2, "r4", "cc", 30, 2, ServiceClass.HRT));
        for (InstallFlow f : flowsOf(planner, "r1")) {
            assertEquals(4_046_080L, f.minRestDelayNanos(), f.toString());
        }
        assertEquals(2_023_040L, only(flowsOf(planner, "r2"), "r4").minRestDelayNanos());
        assertEquals(2_023_040L, only(flowsOf(planner, "r3"), "r4").minRestDelayNanos());
        assertEquals(0, only(flowsOf(planner, "r4"), "cc").minRestDelayNanos());
    }

    @Test
    void aSubscriptionWithoutADeliveryLinkIsRefused() {
        SubscriptionRequest r = new SubscriptionRequest(5, VariableId.of(9), "r1", "r2", 260,
                QosSpec.builder().rateHz(10).latencyBound(Duration.ofMillis(100)).build());
        Admitted a = (Admitted) admission.admit(r);
        assertThrows(IllegalArgumentException.class, () -> planner.add(r, a));
    }
}
