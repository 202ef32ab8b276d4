package org.gridstat.core.congestion;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;

/**
 * Back-pressure toward the publisher: turns what congestion control lent away into congestion
 * notices for the previous hops, and what the next hops ask into holds on this router's flows.
 *
 * <p>A flow is <b>held</b> to a rate (samples per second, on that rate's grid as a rate filter picks
 * them, see {@link ForwardingEngine#hold}) for two reasons: this router lent part of its assured
 * rate to a congested HRT flow on the same link ({@link #decided}: the rate its assured bytes carry
 * at its mean event size), or the next hop on its link asked for no more ({@link #noticed}). The
 * slower of the two holds. An HRT flow is never held: a notice for one is refused.
 *
 * <p>Once every flow of a variable here is held, this router needs no more of it than the fastest
 * of those holds, and <b>advises</b> that rate to each hop the variable comes from (a previous
 * router, or the publisher). When any flow needs more again, or a hold lifts, the advice rises or
 * lifts (rate 0), so bandwidth returns when demand falls. Advice is state, sent on change; the
 * transport resends the current advice to a hop it reconnects to ({@link #adviceFor}).
 *
 * <p>Pure logic on the data-path thread: no clock, no I/O; the router and the simulator call it
 * and carry its advice. Its tables hold an entry per held flow and per advised variable, and drop
 * entries of flows that are gone.
 */
public final class NoticeRelay {
    /** Where advice goes: to the hop the caller numbered {@code hop} ({@link FlowEntry#PUBLISHER}: the publisher). */
    @FunctionalInterface
    public interface Advice {
        void advise(int hop, long variableId, int rateHz);
    }

    /** What became of a notice from a next hop. */
    public enum Verdict {
        /** In force (or already was). */
        APPLIED,
        /** No flow of the variable leaves on the sender's link: forged, or for a flow since removed. */
        NOT_CARRIED,
        /** The flow on the sender's link is HRT, which a notice never slows. */
        HRT
    }

    private final ForwardingEngine<?> engine;
    private final Advice advice;
    /** Per flow, the rate this router's own lending holds it to. */
    private final Map<Long, Integer> lent = new HashMap<>();
    /**
     * Per out-link and variable, the rate the next hop on that link asked for: its state, kept
     * while its notice channel lives, so a flow the broker installs again on the link is held as
     * that hop still wants.
     */
    private final Map<LinkVariable, Integer> asked = new HashMap<>();
    /** Per variable, the rate advised upstream (absent: none), and to which hops. */
    private final Map<Long, Advised> advised = new HashMap<>();
    private long noticesRefused;
    private long adviceWithoutUpstream;

    private record Advised(int rateHz, int[] hops) {
    }

    private record LinkVariable(int link, long variableId) {
    }

    /** Back-pressure over {@code engine}'s flows, following their changes as the engine applies them. */
    public NoticeRelay(ForwardingEngine<?> engine, Advice advice) {
        this.engine = engine;
        this.advice = advice;
        engine.onFlowChange(this::flowsChanged);
    }

    /**
     * A decision of this router's congestion policy: a victim that lent holds to what its new
     * assured rate carries; one that got its reservation back is released.
     */
    public void decided(int link, Decision d) {
        if (d.flowClass() == ServiceClass.HRT || (d.kind() != Decision.Kind.LENT && d.kind() != Decision.Kind.RETURNED)) {
            return;
        }
        FlowEntry f = engine.flow(d.flowId());
        if (f == null) {
            return;
        }
        int rate = d.toRate() >= f.spec().assuredRate() ? 0 : rateCarried(f, d.toRate());
        put(lent, d.flowId(), rate);
        update(f.variableId());
    }

    /**
     * A notice from the next hop on out-link {@code link}: send it at most {@code rateHz} samples
     * per second of the variable (0: no limit).
     */
    public Verdict noticed(int link, long variableId, int rateHz) {
        FlowEntry onLink = null;
        for (FlowEntry f : engine.flowsOf(variableId)) {
            if (f.outLink() == link) {
                onLink = f;
            }
        }
        if (onLink == null) {
            noticesRefused++;
            return Verdict.NOT_CARRIED;
        }
        if (onLink.spec().serviceClass() == ServiceClass.HRT) {
            noticesRefused++;
            return Verdict.HRT;
        }
        put(asked, new LinkVariable(link, variableId), rateHz);
        update(variableId);
        return Verdict.APPLIED;
    }

    /** The next hop on {@code link} is gone (its notice channel closed): what it asked lifts. */
    public void linkLost(int link) {
        Set<Long> variables = new LinkedHashSet<>();
        for (Iterator<LinkVariable> it = asked.keySet().iterator(); it.hasNext(); ) {
            LinkVariable k = it.next();
            if (k.link() == link) {
                it.remove();
                variables.add(k.variableId());
            }
        }
        variables.forEach(this::update);
    }

    /**
     * Re-evaluates a variable after its flows changed (installed, moved, removed): holds, and the
     * advice upstream.
     */
    public void flowsChanged(long variableId) {
        update(variableId);
    }

    /** Every advice in force for the hop numbered {@code hop}: what a transport resends when it reconnects. */
    public void adviceFor(int hop, Advice to) {
        advised.forEach((variable, a) -> {
            for (int h : a.hops()) {
                if (h == hop) {
                    to.advise(hop, variable, a.rateHz());
                }
            }
        });
    }

    /** Notices refused: for a variable not carried toward their sender, or for an HRT flow. */
    public long noticesRefused() {
        return noticesRefused;
    }

    /** Changes of advice that had no hop to go to: flows whose previous hops the router does not know. */
    public long adviceWithoutUpstream() {
        return adviceWithoutUpstream;
    }

    /** Keeps a rate; 0 (no hold) is no entry. */
    private static <K> void put(Map<K, Integer> m, K key, int rate) {
        if (rate == 0) {
            m.remove(key);
        } else {
            m.put(key, rate);
        }
    }

    /** Applies the holds of a variable's flows and advises its previous hops of what it now needs. */
    private void update(long variableId) {
        FlowEntry[] flows = engine.flowsOf(variableId);
        int need = 0;
        boolean unlimited = flows.length == 0;
        Set<Integer> hops = new LinkedHashSet<>();
        for (FlowEntry f : flows) {
            int hold = f.spec().serviceClass() == ServiceClass.HRT ? 0
                    : slower(lent.getOrDefault(f.flowId(), 0), asked.getOrDefault(new LinkVariable(f.outLink(), variableId), 0));
            engine.hold(f.flowId(), hold);
            if (hold == 0) {
                unlimited = true;
            }
            need = Math.max(need, hold);
            for (int h : f.upstreamHops()) {
                hops.add(h);
            }
        }
        prune();
        int fastest = need;
        int rate = unlimited || java.util.Arrays.stream(flows).anyMatch(f -> atOrAbovePublisher(f, fastest)) ? 0 : fastest;
        Advised before = advised.get(variableId);
        int[] to = hops.stream().mapToInt(Integer::intValue).toArray();
        if (before == null ? rate == 0 : before.rateHz() == rate && java.util.Arrays.equals(before.hops(), to)) {
            return;
        }
        if (rate == 0) {
            advised.remove(variableId);
        } else {
            advised.put(variableId, new Advised(rate, to));
        }
        // Lifts go to the hops advised before too: a hop no longer on the path would stay held.
        Set<Integer> told = new LinkedHashSet<>(hops);
        if (before != null) {
            for (int h : before.hops()) {
                told.add(h);
            }
        }
        if (told.isEmpty()) {
            adviceWithoutUpstream++;
        }
        for (int h : told) {
            advice.advise(h, variableId, hops.contains(h) ? rate : 0);
        }
    }

    /**
     * Drops what this router lent for flows no longer installed (a flow installed again starts
     * afresh under its link's policy), and, once the table outgrows the flows, what next hops asked
     * for variables no longer carried on their links. Entries are only made for installed flows, so
     * this bounds both tables by the flows.
     */
    private void prune() {
        lent.keySet().removeIf(id -> engine.flow(id) == null);
        if (asked.size() > 2 * engine.flowCount() + 16) {
            asked.keySet().removeIf(k -> java.util.Arrays.stream(engine.flowsOf(k.variableId()))
                    .noneMatch(f -> f.outLink() == k.link()));
        }
    }

    private static int slower(int a, int b) {
        return a == 0 ? b : b == 0 ? a : Math.min(a, b);
    }

    /** Whether {@code hz} samples a second are the flow's publisher's rate or more (within a rounding of its interval). */
    private static boolean atOrAbovePublisher(FlowEntry f, double hz) {
        long p = f.publisherIntervalNanos();
        return p > 0 && hz * p >= 1e9 - 1;
    }

    /**
     * The samples per second {@code bytesPerSecond} carries at the flow's mean event size; at least
     * one (a hold never stops a flow), and 0 (no hold) when that is the publisher's rate or more.
     */
    /** A hold leaves 1/8 of the rate a flow's assured bandwidth carries for its backlog to drain. */
    static final int DRAIN_DIVISOR = 8;

    static int rateCarried(FlowEntry f, long bytesPerSecond, double meanWireBytes) {
        if (meanWireBytes <= 0) {
            return 0; // nothing arrived yet: no size to reckon with, nothing to hold
        }
        double hz = bytesPerSecond / meanWireBytes;
        if (atOrAbovePublisher(f, hz)) {
            return 0;
        }
        // Held a little below what its rate carries, so the backlog the flow built before the hold
        // drains: held to exactly its rate, a queue's arrivals equal its service and it never empties.
        double held = hz * (DRAIN_DIVISOR - 1) / DRAIN_DIVISOR;
        return (int) Math.max(1, Math.min(Math.floor(held), SampleGrid.MAX_RATE_HZ));
    }

    private int rateCarried(FlowEntry f, long bytesPerSecond) {
        return rateCarried(f, bytesPerSecond, engine.meanWireBytes(f.flowId()));
    }
}
