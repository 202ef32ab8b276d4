package org.gridstat.node.testbed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.RouterNode;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;

/**
 * A scenario run {@code k} times faster: every time, interval, delay, deadline, estimator period and
 * report interval divided by {@code k}, every rate and capacity (link bandwidths, delivery link
 * capacities, routers' forwarding capacities) multiplied by it, each rounded to the nearest
 * nanosecond or unit. Sizes (frames, buffers, MTUs, queues), probabilities, shares and the minimum
 * rates and ceilings (fractions of a reservation) stay. What a flow needs in bytes per second grows
 * by {@code k} with its rate, and so does every link, so each link is as loaded as before and each
 * sample takes {@code 1/k} of the time on it: the scaled run is the same experiment on a clock
 * {@code k} times faster.
 */
public final class ScenarioTimeScale {
    private ScenarioTimeScale() {
    }

    /**
     * @param k how many times faster; 1 returns an equal scenario
     * @throws IllegalArgumentException if {@code k} is not positive and finite, or a scaled value is
     *                                  out of its range (an estimator period below 10 ms, an interval
     *                                  below a nanosecond)
     */
    public static Scenario scale(Scenario s, double k) {
        if (!(k > 0) || Double.isInfinite(k)) {
            throw new IllegalArgumentException("time scale must be positive, got " + k);
        }
        Scenario.Congestion c = s.congestion();
        Scenario.Congestion congestion = new Scenario.Congestion(c.control(), c.notices(),
                new EstimatorSettings(time(c.estimator().periodNanos(), k), c.estimator().weight()), c.rates(),
                c.adaptationDelayNanos() < 0 ? c.adaptationDelayNanos() : time(c.adaptationDelayNanos(), k));
        Map<String, LinkModel> links = new LinkedHashMap<>();
        s.links().forEach((name, m) -> links.put(name, new LinkModel(rate(m.capacity(), k), time(m.delayNanos(), k), m.mtu(),
                m.queuePackets(), m.discipline(), m.loss(), m.burstLoss(), time(m.outageEveryNanos(), k),
                time(m.outageForNanos(), k), m.framing(), m.accessRate() == 0 ? 0 : rate(m.accessRate(), k))));
        List<Scenario.Variable> variables = s.variables().stream().map(v -> new Scenario.Variable(v.name(), v.router(),
                v.frameBytes(), interval(v.intervalNanos(), k), v.serviceClass(), v.correlationGroup(), time(v.startNanos(), k),
                time(v.jitterNanos(), k), time(v.latencyBoundNanos(), k), Math.round(v.clockOffsetNanos() / k))).toList();
        List<Scenario.Subscription> subscriptions = s.subscriptions().stream().map(u -> new Scenario.Subscription(u.label(),
                u.variable(), u.router(), u.link(), qos(u.qos(), k), time(u.atNanos(), k))).toList();
        List<Scenario.RawSource> raw = s.rawSources().stream().map(r -> new Scenario.RawSource(r.label(), r.router(),
                r.link(), r.sizes(), interval(r.intervalNanos(), k), r.poisson(), time(r.startNanos(), k),
                time(r.stopNanos(), k), r.bufferDatagrams())).toList();
        List<Scenario.Change> timeline = s.timeline().stream().map(ch -> change(ch, k)).toList();
        return new Scenario(s.name(), topology(s.topology(), k), interval(s.durationNanos(), k),
                interval(s.reportIntervalNanos(), k), s.seed(), s.admission(), links, variables, subscriptions, raw, timeline,
                congestion);
    }

    /** The topology with its capacities and bandwidths times {@code k}, its delays and queueing budgets over it. */
    public static Topology topology(Topology t, double k) {
        Topology.Builder b = Topology.builder();
        for (RouterNode r : t.routers()) {
            List<ControlMessage.OutLink> delivery = new ArrayList<>();
            for (ControlMessage.OutLink l : r.delivery()) {
                ControlMessage.Emulation e = l.emulation();
                delivery.add(new ControlMessage.OutLink(l.name(), l.address(), l.priority(), rate(l.capacity(), k),
                        l.hrtPercent(), l.lrtPercent(), l.bePercent(), l.burstBytes(), l.mtu(),
                        new ControlMessage.Emulation(time(e.delayNanos(), k), e.loss(), time(e.faultEveryNanos(), k),
                                time(e.faultForNanos(), k), e.seed(), e.queueBytes())));
            }
            b.router(r.id(), rate(r.forwardingCapacity(), k), time(r.queueingBudgetNanos(), k), r.cloud(), r.address(),
                    r.priority(), delivery);
        }
        for (Link l : t.links()) {
            b.link(l.from().id(), l.to().id(), rate(l.bandwidth(), k), time(l.delayNanos(), k), l.sharePercent());
        }
        return b.build();
    }

    private static Scenario.Change change(Scenario.Change c, double k) {
        long at = time(c.atNanos(), k);
        if (c instanceof Scenario.RateChange r) {
            return new Scenario.RateChange(at, r.variable(), interval(r.intervalNanos(), k));
        } else if (c instanceof Scenario.RawRateChange r) {
            return new Scenario.RawRateChange(at, r.source(), interval(r.intervalNanos(), k));
        } else if (c instanceof Scenario.LinkState l) {
            return new Scenario.LinkState(at, l.link(), l.up());
        } else if (c instanceof Scenario.RouterState r) {
            return new Scenario.RouterState(at, r.router(), r.up());
        } else if (c instanceof Scenario.Unsubscribe u) {
            return new Scenario.Unsubscribe(at, u.label());
        }
        throw new IllegalArgumentException("no time scale for " + c);
    }

    private static QosSpec qos(QosSpec q, double k) {
        QosSpec.Builder b = QosSpec.builder().interval(java.time.Duration.ofNanos(interval(q.intervalNanos(), k)))
                .latencyBound(java.time.Duration.ofNanos(interval(q.latencyBoundNanos(), k))).paths(q.paths())
                .serviceClass(q.serviceClass());
        if (!q.correlationGroup().isEmpty()) {
            b.correlationGroup(q.correlationGroup());
        }
        return b.build();
    }

    /** A time or duration over {@code k}, to the nearest nanosecond; 0 stays 0 (none), a negative one (a marker) stays. */
    static long time(long nanos, double k) {
        return nanos <= 0 ? nanos : Math.round(nanos / k);
    }

    /** An interval over {@code k}: at least a nanosecond. */
    static long interval(long nanos, double k) {
        return Math.max(1, Math.round(nanos / k));
    }

    /** A rate or capacity times {@code k}, at least 1. */
    static long rate(long perSecond, double k) {
        double r = perSecond * k;
        if (r > Long.MAX_VALUE) {
            throw new IllegalArgumentException("rate " + perSecond + " times " + k + " overflows");
        }
        return Math.max(1, Math.round(r));
    }
}
