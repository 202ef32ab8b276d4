package org.gridstat.broker.install;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.gridstat.broker.admission.AdmissionController;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmissionResult.Admitted;
import org.gridstat.broker.admission.SubscriptionRequest;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/**
 * Admission and the flow planner are the two halves of one model of link sharing: random admit,
 * modify and teardown sequences on small random topologies, checked after every step. Per link and
 * class, the assured rates of the flows the routers are given add up to exactly what admission
 * reserved there, and never exceed the class's share.
 */
class LinkSharingPropertyTest {
    private static final int[] RATES_HZ = {10, 20, 30, 60, 120};
    private static final ServiceClass[] CLASSES = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};
    private static final long PUBLISHER_INTERVAL = SampleGrid.ofRate(120).intervalNanos();

    private record Held(SubscriptionRequest request, Admitted admitted) {
    }

    @Test
    void installedAssuredRatesPerLinkAndClassAreWhatAdmissionReservedAndWithinTheShare() {
        int steps = 0;
        for (long seed = 1; seed <= 300; seed++) {
            steps += run(seed, 150);
        }
        assertTrue(steps > 30_000, "enough steps ran: " + steps);
    }

    private static int run(long seed, int steps) {
        Random random = new Random(seed);
        Topology t = randomTopology(random);
        AdmissionController admission = new AdmissionController(t);
        FlowPlanner planner = new FlowPlanner();
        Map<Long, Held> held = new LinkedHashMap<>();
        long nextId = 1;
        int admitted = 0;
        for (int step = 0; step < steps; step++) {
            int op = random.nextInt(10);
            String what;
            if (op < 5 || held.isEmpty()) {
                SubscriptionRequest r = randomRequest(random, t, nextId++);
                what = "admit " + r;
                if (admission.admit(r) instanceof Admitted a) {
                    planner.add(r, a);
                    held.put(r.subscriptionId(), new Held(r, a));
                    admitted++;
                }
            } else {
                List<Long> ids = new ArrayList<>(held.keySet());
                long id = ids.get(random.nextInt(ids.size()));
                Held old = held.get(id);
                if (op < 8) { // as the broker modifies: release, admit afresh, or take the old back
                    SubscriptionRequest o = old.request();
                    SubscriptionRequest changed = new SubscriptionRequest(id, o.variable(), o.publisherRouter(),
                            o.subscriberRouter(), o.frameBytes(), randomQos(random, o.publisherRouter().equals(
                                    o.subscriberRouter())), o.subscriberLink(), o.publisherIntervalNanos());
                    what = "modify " + id + " to " + changed.qos();
                    assertTrue(admission.release(id));
                    AdmissionResult result = admission.admit(changed);
                    if (result instanceof Admitted a) {
                        planner.replace(changed, a);
                        held.put(id, new Held(changed, a));
                    } else {
                        admission.restore(o, old.admitted());
                    }
                } else {
                    what = "teardown " + id;
                    assertTrue(admission.release(id));
                    planner.remove(id);
                    held.remove(id);
                }
            }
            check(t, admission, planner, "seed " + seed + ", step " + step + " (" + what + ")");
            if (step % 10 == 9) {
                checkRestored(t, admission, planner, held, "seed " + seed + ", step " + step + " (" + what + ")");
            }
        }
        for (long id : new ArrayList<>(held.keySet())) {
            admission.release(id);
            planner.remove(id);
        }
        check(t, admission, planner, "seed " + seed + ", all torn down");
        assertTrue(planner.flows().isEmpty(), "seed " + seed + ": no flows left");
        assertTrue(admitted > 0, "seed " + seed + ": something was admitted");
        return steps;
    }

    private static void check(Topology t, AdmissionController admission, FlowPlanner planner, String where) {
        Map<String, List<InstallFlow>> flows = planner.flows();
        for (Link l : t.links()) {
            for (ServiceClass c : ServiceClass.values()) {
                long installed = 0;
                for (InstallFlow f : flows.getOrDefault(l.from().id(), List.of())) {
                    if (f.link().equals(l.to().id()) && f.spec().serviceClass() == c) {
                        installed += f.spec().assuredRate();
                    }
                }
                String at = where + ": link " + l.name() + " class " + c;
                assertEquals(admission.installed(l, c), installed, at + ", installed by the planner vs counted by admission");
                assertTrue(installed <= admission.reserved(l, c), at + ": " + installed + " B/s installed, "
                        + admission.reserved(l, c) + " reserved");
                assertTrue(admission.reserved(l, c) <= l.classCapacity(c), at + " reserves " + admission.reserved(l, c)
                        + " B/s, its share is " + l.classCapacity(c));
            }
        }
    }

    /**
     * A broker taking over restores every subscription from the store, in id order: it must hold
     * the same reservations and give the routers the same flows (ids included) as the broker it follows.
     */
    private static void checkRestored(Topology t, AdmissionController admission, FlowPlanner planner, Map<Long, Held> held,
                                      String where) {
        AdmissionController again = new AdmissionController(t);
        FlowPlanner planned = new FlowPlanner();
        for (long id : new java.util.TreeSet<>(held.keySet())) {
            Held h = held.get(id);
            Admitted a = again.restore(h.request(), h.admitted());
            planned.restore(h.request(), a, planner.flowIdsOf(id));
        }
        for (Link l : t.links()) {
            for (ServiceClass c : ServiceClass.values()) {
                String at = where + ", restored: link " + l.name() + " class " + c;
                assertEquals(admission.reserved(l, c), again.reserved(l, c), at + " reserved");
                assertEquals(admission.installed(l, c), again.installed(l, c), at + " installed");
            }
        }
        for (org.gridstat.broker.topology.RouterNode r : t.routers()) {
            assertEquals(admission.reserved(r), again.reserved(r), where + ", restored: router " + r.id());
        }
        assertEquals(withoutVersions(planner.flows()), withoutVersions(planned.flows()), where + ", restored flows");
    }

    private static Map<String, java.util.Set<InstallFlow>> withoutVersions(Map<String, List<InstallFlow>> flows) {
        Map<String, java.util.Set<InstallFlow>> out = new java.util.TreeMap<>();
        flows.forEach((router, list) -> out.put(router, new java.util.HashSet<>(list.stream()
                .map(f -> f.withVersion(0)).toList())));
        return out;
    }

    /** 3-6 routers, links of 50-300 kB/s (a few streams per class share) between random pairs. */
    private static Topology randomTopology(Random random) {
        int n = 3 + random.nextInt(4);
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < n; i++) {
            b.router("r" + i, 200 + random.nextInt(800));
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (j == i + 1 || random.nextInt(3) == 0) {
                    b.between("r" + i, "r" + j, 50_000 + random.nextInt(250_000), (1 + random.nextInt(5)) * 1_000_000L,
                            Topology.Builder.defaultShares());
                }
            }
        }
        return b.build();
    }

    /** One of three variables (variable v published at router v), to any router, on one of two links. */
    private static SubscriptionRequest randomRequest(Random random, Topology t, long id) {
        int n = t.routers().size();
        int variable = random.nextInt(3);
        String from = "r" + (variable % n);
        String to = "r" + random.nextInt(n);
        return new SubscriptionRequest(id, VariableId.of(variable + 1), from, to, 260, randomQos(random, from.equals(to)),
                random.nextBoolean() ? "x" : "y", PUBLISHER_INTERVAL);
    }

    private static QosSpec randomQos(Random random, boolean local) {
        return QosSpec.builder().rateHz(RATES_HZ[random.nextInt(RATES_HZ.length)])
                .latencyBound(Duration.ofMillis(50 + random.nextInt(100)))
                .paths(local ? 1 : 1 + random.nextInt(2)).serviceClass(CLASSES[random.nextInt(CLASSES.length)]).build();
    }
}
