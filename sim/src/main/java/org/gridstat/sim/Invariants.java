package org.gridstat.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridstat.broker.admission.AdmissionResult;
import org.gridstat.broker.admission.AdmittedSubscription;
import org.gridstat.broker.topology.Link;
import org.gridstat.core.egress.LinkCounter;
import org.gridstat.core.forward.EngineCounter;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkStatistics;
import org.gridstat.core.sched.QueueStatistics;
import org.gridstat.sim.metrics.FlowInterval;
import org.gridstat.sim.metrics.SubscriptionSeries;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.net.SimDatagram;
import org.gridstat.sim.net.SimLink;
import org.gridstat.sim.net.SimRouter;
import org.gridstat.sim.scenario.Scenario;

/**
 * What every run must satisfy, checked at its end:
 * <ol>
 *   <li>each sample is delivered at most once per subscription, never more than it asked for, and
 *       no more late than delivered;
 *   <li>counts balance: on every out-link of every router, per class, every arrival departed,
 *       missed its deadline, overflowed, went with its flow or still waits, and the engine queued
 *       and refused as many copies as the links saw arrive; the copies the routers hold are the
 *       packets referenced; on every link, every datagram sent was delivered, lost for a counted
 *       reason, or is still on its way;
 *   <li>an admitted HRT subscription whose paths see no fault (no loss, outage, cut or crash on
 *       them, no line framing the broker does not count, its publisher's clock true and its rate
 *       unchanged) and whose links stay within their capacity misses no deadline, overflows
 *       nothing and is never late.
 * </ol>
 * Determinism (the same seed gives the same result) is checked by running twice.
 */
final class Invariants {
    private final Simulation sim;
    private final SimulationResult result;
    private final List<String> violations = new ArrayList<>();
    private int hrtChecked;

    Invariants(Simulation sim, SimulationResult result) {
        this.sim = sim;
        this.result = result;
    }

    List<String> check() {
        deliveries();
        routerBooks();
        linkBooks();
        hrtUnharmed();
        return List.copyOf(violations);
    }

    /** HRT subscriptions held to no miss by the last {@link #check}. */
    int hrtChecked() {
        return hrtChecked;
    }

    private void fail(String what) {
        violations.add(what);
    }

    private void deliveries() {
        for (SubscriptionSeries s : sim.series().values()) {
            if (s.repeated() > 0) {
                fail("subscription " + s.label() + ": " + s.repeated() + " samples delivered more than once");
            }
            FlowInterval sum = result.summary(s.label());
            if (sum != null && (sum.late() > sum.delivered() || sum.delivered() > sum.offered())) {
                fail("subscription " + s.label() + ": " + sum.offered() + " offered, " + sum.delivered() + " delivered, "
                        + sum.late() + " late");
            }
        }
    }

    private void routerBooks() {
        long held = 0;
        for (SimRouter r : sim.routers().values()) {
            if (!r.up()) {
                continue;
            }
            long arrivals = 0;
            for (int link = 0; link < r.outLinks().size(); link++) {
                LinkStatistics st = r.engine().statistics(link);
                long in = 0;
                long out = 0;
                long departures = 0;
                for (ServiceClass c : ServiceClass.values()) {
                    QueueStatistics q = st.serviceClass(c);
                    if (q == null) {
                        continue;
                    }
                    in += q.arrivals();
                    out += q.departures() + q.deadlineMisses() + q.overflowDrops() + q.removedDrops() + q.backlog();
                    departures += q.departures();
                    held += q.backlog();
                    if (c != ServiceClass.CONTROL) {
                        arrivals += q.arrivals();
                    }
                }
                String where = "router " + r.id() + " link " + r.outLinks().get(link).name() + ": ";
                if (in != out) {
                    fail(where + in + " arrivals but " + out + " departed, missed, overflowed, removed or waiting");
                }
                long sent = r.agent().pump(link).counters().get(LinkCounter.SENT);
                if (sent != departures) {
                    fail(where + departures + " departures from the scheduler but " + sent + " copies sent");
                }
            }
            long queued = r.engine().counters().get(EngineCounter.QUEUED) + r.engine().counters().get(EngineCounter.REFUSED);
            if (queued != arrivals) {
                fail("router " + r.id() + ": the engine queued or refused " + queued + " copies, its links saw " + arrivals);
            }
        }
        if (sim.references().live() != held) {
            fail(sim.references().live() + " packet references held, but the routers' queues hold " + held);
        }
    }

    private void linkBooks() {
        for (SimLink l : sim.links().values()) {
            long sealed = l.datagramsDelivered();
            for (SimLink.Loss why : SimLink.Loss.values()) {
                sealed += l.datagramsLost(why);
            }
            if (l.datagramsSent() != sealed + l.outstanding() || l.outstanding() < 0) {
                fail("link " + l.name() + ": " + l.datagramsSent() + " datagrams sent, " + sealed
                        + " delivered or lost, " + l.outstanding() + " on the way");
            }
        }
    }

    private void hrtUnharmed() {
        Scenario sc = sim.scenario();
        Set<String> faultyLinks = new HashSet<>();
        Set<String> crashed = new HashSet<>();
        Set<String> rateChanged = new HashSet<>();
        Set<String> gone = new HashSet<>();
        sc.links().forEach((name, m) -> {
            // the broker reserves IP bytes: a line's framing (ATM cells) is beyond what it guarantees
            if (m.loss() > 0 || m.burstLoss().enterBad() > 0 || m.outageEveryNanos() > 0
                    || m.discipline() != LinkModel.Discipline.SCHEDULER || m.framing() != LinkModel.Framing.IP) {
                faultyLinks.add(name);
            }
        });
        for (Scenario.Change c : sc.timeline()) {
            if (c instanceof Scenario.LinkState ls) {
                faultyLinks.add(ls.link());
            } else if (c instanceof Scenario.RouterState rs) {
                crashed.add(rs.router());
            } else if (c instanceof Scenario.RateChange rc) {
                rateChanged.add(rc.variable());
            } else if (c instanceof Scenario.Unsubscribe u) {
                gone.add(u.label());
            } else if (c instanceof Scenario.RawRateChange rr) {
                sc.rawSources().stream().filter(x -> x.label().equals(rr.source())).forEach(x -> {
                    faultyLinks.add(x.router() + "->" + x.link()); // its load is no longer the one checked
                    faultyLinks.add(x.router() + "/" + x.link());
                });
            }
        }
        for (Scenario.Subscription s : sc.subscriptions()) {
            Long id = sim.subscriptionIds().get(s.label());
            if (id == null || gone.contains(s.label()) || s.qos().serviceClass() != ServiceClass.HRT
                    || rateChanged.contains(s.variable())) {
                continue;
            }
            Scenario.Variable v = sc.variables().stream().filter(x -> x.name().equals(s.variable())).findFirst().orElseThrow();
            if (v.clockOffsetNanos() != 0 || v.serviceClass() != ServiceClass.HRT
                    || (v.latencyBoundNanos() != 0 && v.latencyBoundNanos() < s.qos().latencyBoundNanos())) {
                continue; // a publisher stamping a deadline tighter than the bound: routers drop by the stamp
            }
            AdmittedSubscription a = sim.broker().subscription(id);
            if (a == null || !unharmed(a.admitted(), s, faultyLinks, crashed)) {
                continue;
            }
            hrtChecked++;
            FlowInterval sum = result.summary(s.label());
            if (sum.late() > 0 || sum.deadlineMisses() > 0 || sum.overflowDrops() > 0) {
                fail("HRT subscription " + s.label() + " on fault-free paths within capacity: " + sum.late() + " late, "
                        + sum.deadlineMisses() + " deadline misses, " + sum.overflowDrops() + " overflow drops");
            }
        }
    }

    /** Whether no hop of any path is faulty or crashed, and no link on them carries more than its capacity. */
    private boolean unharmed(AdmissionResult.Admitted admitted, Scenario.Subscription s, Set<String> faultyLinks,
                             Set<String> crashed) {
        for (List<AdmissionResult.Hop> path : admitted.paths()) {
            for (AdmissionResult.Hop h : path) {
                String link = h.next() == null ? h.router() + "/" + s.link() : h.router() + "->" + h.next();
                if (crashed.contains(h.router()) || faultyLinks.contains(link) || !withinCapacity(link)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The broker's reservations and the raw traffic over {@code link} fit its wire. */
    private boolean withinCapacity(String link) {
        SimLink l = sim.links().get(link);
        if (l == null) {
            return false;
        }
        double load = 0;
        Link topo = null;
        int arrow = link.indexOf("->");
        if (arrow > 0) {
            topo = sim.scenario().topology().link(link.substring(0, arrow), link.substring(arrow + 2));
        }
        if (topo != null) {
            for (ServiceClass c : new ServiceClass[] {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE}) {
                load += sim.broker().admission().reserved(topo, c);
            }
        }
        for (Scenario.RawSource rs : sim.scenario().rawSources()) {
            if ((rs.router() + (arrow > 0 ? "->" : "/") + rs.link()).equals(link)) {
                double bytes = 0;
                for (int size : rs.sizes()) {
                    int packets = SimDatagram.packets(size, l.model().mtu());
                    bytes += size + SimDatagram.UDP_HEADER + packets * SimDatagram.IP_HEADER;
                }
                load += bytes / rs.sizes().size() * 1e9 / rs.intervalNanos();
            }
        }
        return load <= l.model().capacity();
    }
}
