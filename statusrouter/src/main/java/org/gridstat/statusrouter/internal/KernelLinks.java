package org.gridstat.statusrouter.internal;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.time.NanoClock;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelFlowStatistics;
import org.gridstat.statusrouter.spi.KernelLink;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The out-links of one data plane that the kernel shapes, and the thread that keeps each kernel
 * tree in step with the router's flows.
 *
 * <p>Every {@link #POLL_NANOS} the thread reads each kernel link's flows as the data path has them
 * (the broker's reservations with congestion control's reassignments over them) and, when they
 * differ from what it last applied, applies them: a reconciliation, so a change is never queued
 * without bound, a burst of changes costs one apply, and a refused apply is tried again at the
 * next poll; flows that did not change are applied again every {@link #REAPPLY_NANOS}, so a tree
 * the kernel lost (its device made anew) is built again. For a link whose demand comes from the
 * kernel, it also reads the kernel's counters each estimator period and gives each flow its
 * demand on the data path.
 *
 * <p>A link the kernel cannot shape (no kernel-shaping bundle, no privilege, no HTB, an unknown
 * device) is said once in the log and shaped by the router; a data plane never fails for it.
 */
final class KernelLinks implements AutoCloseable {
    /** How often the kernel trees are brought in step with the flows: a reassignment reaches the kernel within it. */
    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Flows that did not change are applied again this often: a tree the kernel lost is built again. */
    static final long REAPPLY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A link whose apply keeps failing is logged at most this often. */
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Logger LOG = LoggerFactory.getLogger(KernelLinks.class);

    /** One kernel-shaped link and what the thread last did to it. */
    private static final class Shaped {
        final int index;
        final String name;
        final KernelLink kernel;
        final boolean kernelEstimator;
        List<KernelFlow> applied;
        long appliedAt;
        long lastFailureLog = Long.MIN_VALUE;
        long nextEstimate;
        long lastEstimate;
        Map<Long, KernelFlowStatistics> lastCounters = Map.of();

        Shaped(int index, String name, KernelLink kernel, boolean kernelEstimator) {
            this.index = index;
            this.name = name;
            this.kernel = kernel;
            this.kernelEstimator = kernelEstimator;
        }
    }

    private final String router;
    private final Shaped[] byLink;
    private final List<Shaped> shaped = new ArrayList<>();
    private final AtomicLong applies = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running;
    private Thread thread;

    private KernelLinks(String router, int links) {
        this.router = router;
        this.byLink = new Shaped[links];
    }

    /** Opens the kernel's shaping of each link its settings name; a link it cannot shape is logged and left to the router. */
    static KernelLinks open(RouterSettings settings) {
        KernelLinks k = new KernelLinks(settings.nodeId, settings.links.size());
        KernelShapingSettings ks = settings.kernelShaping;
        for (KernelShapingSettings.Link line : ks.links) {
            if (settings.links.stream().noneMatch(l -> l.name.equals(line.name()))) {
                LOG.warn("router {}: kernel.shaping names link '{}', which is not among its out-links {}: nothing is shaped"
                        + " for it until a link of that name comes (from the broker)", settings.nodeId, line.name(),
                        settings.links.stream().map(l -> l.name).toList());
            }
        }
        for (int i = 0; i < settings.links.size(); i++) {
            OutLinkConfig link = settings.links.get(i);
            KernelShapingSettings.Link line = ks.of(link.name);
            if (line == null) {
                continue;
            }
            if (ks.provider == null) {
                LOG.warn("router {}: link {} asks for kernel shaping on {}, but no kernel-shaping bundle is installed:"
                        + " the router shapes it", settings.nodeId, link.name, line.device());
                continue;
            }
            try {
                KernelLinkPlan plan = new KernelLinkPlan(settings.nodeId, link.name, line.device(),
                        resolve(link.address), link.priorityAddress == null ? null : resolve(link.priorityAddress),
                        link.spec, org.gridstat.core.sched.FlowSpec.DEFAULT_BUFFER_EVENTS);
                KernelLink kernel = ks.provider.open(plan);
                Shaped s = new Shaped(i, link.name, kernel, line.kernelEstimator());
                k.byLink[i] = s;
                k.shaped.add(s);
                LOG.info("router {}: link {} shaped by the kernel on {} (demand from {})", settings.nodeId, link.name,
                        line.device(), line.kernelEstimator() ? "the kernel's counters" : "the router's arrivals");
            } catch (Exception e) { // the provider's reason, said once: the router shapes it
                LOG.warn("router {}: link {} not shaped by the kernel on {} ({}): the router shapes it", settings.nodeId,
                        link.name, line.device(), e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
        return k;
    }

    private static InetSocketAddress resolve(org.gridstat.core.model.Endpoint e) {
        return new InetSocketAddress(e.host(), e.port());
    }

    /** Whether the kernel shapes link {@code index}. */
    boolean shaped(int index) {
        return byLink[index] != null;
    }

    /** The spec the router's scheduler runs link {@code index} with: its own, or left to the kernel. */
    LinkSpec specOf(int index, LinkSpec own) {
        Shaped s = byLink[index];
        return s == null ? own : own.shapedInKernel(s.kernelEstimator);
    }

    /**
     * Starts keeping the trees in step with {@code engine}'s flows; {@code dataPath} runs what must
     * run on the data-path thread (the kernel's demand measures).
     */
    void start(ForwardingEngine<?> engine, Executor dataPath, NanoClock clock, long estimatorPeriodNanos) {
        if (shaped.isEmpty()) {
            return;
        }
        running = true;
        thread = new Thread(() -> run(engine, dataPath, clock, estimatorPeriodNanos), "gridstat-" + router + "-kernel");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(ForwardingEngine<?> engine, Executor dataPath, NanoClock clock, long estimatorPeriodNanos) {
        long start = clock.nanoTime();
        for (Shaped s : shaped) {
            s.nextEstimate = start + estimatorPeriodNanos;
            s.lastEstimate = start;
        }
        while (running) {
            long now = clock.nanoTime(); // once per cycle
            for (Shaped s : shaped) {
                reconcile(s, engine, now);
                if (s.kernelEstimator && now - s.nextEstimate >= 0) {
                    estimate(s, dataPath, engine, clock);
                    s.nextEstimate = now + estimatorPeriodNanos;
                }
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** Applies the link's flows if they changed since the last apply. */
    private void reconcile(Shaped s, ForwardingEngine<?> engine, long now) {
        List<KernelFlow> flows = steadySlack(flowsOf(engine, s.index), s.applied);
        if (flows.equals(s.applied) && now - s.appliedAt < REAPPLY_NANOS) {
            return;
        }
        try {
            s.kernel.apply(flows);
            s.applied = flows;
            s.appliedAt = now;
            applies.incrementAndGet();
        } catch (Exception e) { // tried again at the next poll
            failures.incrementAndGet();
            s.applied = null;
            if (now - s.lastFailureLog >= LOG_EVERY_NANOS || s.lastFailureLog == Long.MIN_VALUE) {
                s.lastFailureLog = now;
                LOG.warn("router {}: link {}: the kernel refused its flows ({}); tried again every {} ms", router, s.name,
                        e.getMessage() == null ? e.toString() : e.getMessage(), TimeUnit.NANOSECONDS.toMillis(POLL_NANOS));
            }
        }
    }

    /**
     * {@code flows} with each one's slack as last {@code applied} while the new one is within a
     * tenth of it: arrivals jitter the slack every period, and the tree would be applied anew each
     * time for a leaf queue that moves in whole packets. Both lists are in flow-id order.
     */
    static List<KernelFlow> steadySlack(List<KernelFlow> flows, List<KernelFlow> applied) {
        if (applied == null || applied.isEmpty()) {
            return flows;
        }
        List<KernelFlow> steady = new ArrayList<>(flows.size());
        int j = 0;
        for (KernelFlow f : flows) {
            while (j < applied.size() && applied.get(j).flowId() < f.flowId()) {
                j++;
            }
            KernelFlow before = j < applied.size() && applied.get(j).flowId() == f.flowId() ? applied.get(j) : null;
            if (before != null && before.slackMillis() != KernelFlow.NO_DEADLINE && f.slackMillis() != KernelFlow.NO_DEADLINE
                    && Math.abs(f.slackMillis() - before.slackMillis()) * 10 <= before.slackMillis()) {
                f = f.withSlackMillis(before.slackMillis());
            }
            steady.add(f);
        }
        return steady;
    }

    /** The link's flows as the kernel should shape them, in flow-id order. */
    static List<KernelFlow> flowsOf(ForwardingEngine<?> engine, int link) {
        List<KernelFlow> flows = new ArrayList<>();
        engine.visitRates(link, (spec, assured, shortfall, meanWireBytes, heldHz, leastSlack) -> {
            FlowEntry e = engine.installedFlow(spec.flowId());
            if (e != null && e.outLink() == link) {
                double wireBytes = Math.rint(meanWireBytes);
                flows.add(new KernelFlow(spec.flowId(), e.variableId(), spec.serviceClass(), assured,
                        Math.max(assured, spec.ceilingRate()), shortfall, wireBytes, Math.min(assured, spec.minimumRate()),
                        (long) Math.ceil(heldHz * wireBytes),
                        leastSlack == Long.MAX_VALUE ? KernelFlow.NO_DEADLINE : leastSlack / 1_000_000));
            }
        });
        flows.sort(Comparator.comparingLong(KernelFlow::flowId));
        return flows;
    }

    /**
     * One estimator period of the kernel's counters, as each flow's demand on the wire, handed to the
     * data path. Timed when they are read: the cycle's applies before them may take a while.
     */
    private void estimate(Shaped s, Executor dataPath, ForwardingEngine<?> engine, NanoClock clock) {
        long now = clock.nanoTime();
        List<KernelFlowStatistics> counters;
        try {
            counters = s.kernel.statistics();
        } catch (Exception e) {
            failures.incrementAndGet();
            return; // the next period measures over both
        }
        double seconds = (now - s.lastEstimate) / 1e9;
        Map<Long, KernelFlowStatistics> current = new HashMap<>();
        List<long[]> demands = new ArrayList<>();
        for (KernelFlowStatistics c : counters) {
            current.put(c.flowId(), c);
            KernelFlowStatistics before = s.lastCounters.get(c.flowId());
            if (before != null && seconds > 0) {
                demands.add(new long[] {c.flowId(), Math.round(offered(before, c) / seconds)});
            }
        }
        s.lastCounters = current;
        s.lastEstimate = now;
        if (!demands.isEmpty()) {
            dataPath.execute(() -> {
                for (long[] d : demands) {
                    engine.measuredDemand(d[0], d[1]);
                }
            });
        }
    }

    /**
     * The bytes a flow's class took in between two readings: what it sent, what it dropped (at
     * the mean size of what it sent) and how much its queue grew. Counters that went back (a
     * class made anew) count from zero.
     */
    static double offered(KernelFlowStatistics before, KernelFlowStatistics after) {
        if (after.bytes() < before.bytes() || after.packets() < before.packets() || after.drops() < before.drops()) {
            before = new KernelFlowStatistics(after.flowId(), 0, 0, 0, 0, 0);
        }
        double meanPacket = after.packets() == 0 ? 0 : (double) after.bytes() / after.packets();
        return Math.max(0, (after.bytes() - before.bytes()) + (after.drops() - before.drops()) * meanPacket
                + (after.backlogBytes() - before.backlogBytes()));
    }

    /** Applies that reached the kernel, and applies or readings it refused, since the data plane started. */
    long applies() {
        return applies.get();
    }

    long failures() {
        return failures.get();
    }

    /** Stops the thread and removes every tree, leaving the devices as they were. */
    @Override
    public void close() {
        running = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Shaped s : shaped) {
            try {
                s.kernel.close();
            } catch (RuntimeException e) {
                LOG.error("router {}: link {}: removing its kernel tree: {}", router, s.name, e.toString());
            }
        }
        shaped.clear();
    }
}
