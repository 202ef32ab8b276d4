package org.gridstat.core.congestion;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkFlows;
import org.gridstat.core.time.Saturating;

/**
 * Local bandwidth reassignment, the thesis's Algorithm 2. Each call starts from the reservations
 * and, for each congested HRT flow in flow-id order, grants what it needs (its demand up to its
 * ceiling, less its reservation) from the link's capacity no reservation holds, then takes the
 * rest from victims: best effort before LRT, and within a class the
 * flows of the congested flow's correlation group (its substation) first, then the rest, each in
 * flow-id order; a victim never goes below its minimum rate. Because every call starts from the
 * reservations, bandwidth goes back to the victims as soon as the demand that took it falls.
 *
 * <p>Needs are counted in quanta (1/64 of the flow's reservation, and no less than one of its
 * events per estimator period, the estimate's resolution), and a need (also one of a single quantum)
 * shrinks at once only when it has fallen by two quanta, and by less only after ten periods in a
 * row asked for less, so a demand estimate that wobbles from one period to the next does not move
 * rates, and notices, back and forth, and a surge that ended gives everything back. A need neither the spare
 * capacity nor a victim can cover is reported {@link Decision.Kind#UNMET} once, again when it changes by a quantum or more, and
 * {@link Decision.Kind#MET} when it is covered (or its flow leaves, or stops being HRT). Nothing is
 * allocated per call but the decisions, and the group numbering when the link's flows change.
 */
public final class BandwidthReassignment implements CongestionPolicy {
    private static final int QUANTA_PER_RESERVATION = 64;
    /** Periods in a row a need must be asked to fall by less than two quanta before it does. */
    public static final int SETTLE_PERIODS = 10;
    /** The share of a link's unreserved capacity kept back until the victims run out: 1/32 (about 3 %). */
    public static final int HEADROOM_DIVISOR = 32;

    private int[] hrt = new int[0];
    private int[] lrt = new int[0];
    private int[] be = new int[0];
    private long[] target = new long[0];
    private long[] need = new long[0];
    /** Per slot: periods in a row its need asked to fall by less than two quanta, and the most asked in them. */
    private int[] lowFor = new int[0];
    private long[] lowMost = new long[0];
    private long[] unmet = new long[0];
    private long[] flowAt = new long[0];
    private long[] beneficiary = new long[0];
    private ServiceClass[] classAt = new ServiceClass[0];
    /** Per slot, its flow's correlation group as a number (equal groups, equal numbers), and its name. */
    private int[] groupAt = new int[0];
    private String[] groupName = new String[0];
    private long[] minimum = new long[0];
    private static final int LRT = 0;
    private static final int BE = 1;
    /** Per victim class, the first place in its order whose victim may still lend, this run. */
    private final int[] firstOpen = new int[2];
    private int hrtCount;
    private int lrtCount;
    private int beCount;

    @Override
    public void reassign(LinkFlows flows, long now, Consumer<Decision> decisions) {
        int n = flows.slotCount();
        if (target.length != n) {
            grow(n);
        }
        long reserved = 0;
        boolean reordered = false;
        for (int s = 0; s < n; s++) {
            FlowSpec spec = flows.reserved(s);
            if (spec == null || flowAt[s] != spec.flowId() || spec.serviceClass() != ServiceClass.HRT) {
                closeShortfall(flows, s, decisions); // the flow that was short is gone, or no longer HRT
            }
            ServiceClass c = spec == null ? null : spec.serviceClass();
            if (c != classAt[s]) {
                classAt[s] = c;
                reordered = true;
            }
            if (spec == null) {
                reordered |= flowAt[s] != -1;
                flowAt[s] = -1;
                continue;
            }
            if (flowAt[s] != spec.flowId()) { // a new flow in the slot starts afresh
                flowAt[s] = spec.flowId();
                need[s] = 0;
                lowFor[s] = 0;
                reordered = true;
            }
            reserved = Saturating.add(reserved, spec.assuredRate());
            target[s] = spec.assuredRate();
            minimum[s] = spec.minimumRate();
            beneficiary[s] = -1;
        }
        if (reordered || groupsChanged(flows, n)) { // orders and group numbers are kept while the flows stay
            hrtCount = 0;
            lrtCount = 0;
            beCount = 0;
            numberGroups(flows, n);
            for (int s = 0; s < n; s++) {
                if (classAt[s] != null) {
                    switch (classAt[s]) {
                        case HRT -> hrtCount = insert(hrt, hrtCount, s, flows);
                        case LRT -> lrtCount = insert(lrt, lrtCount, s, flows);
                        default -> beCount = insert(be, beCount, s, flows);
                    }
                }
            }
        }
        firstOpen[LRT] = 0;
        firstOpen[BE] = 0;
        // What no reservation holds is granted before anyone lends, all but a headroom of the link's
        // capacity, which is granted only when the victims cannot cover a need: a link assured to its
        // whole capacity leaves real arrivals' bursts no room, and the lowest class's queue never drains.
        long headroom = Math.min(Math.max(0, flows.capacity() - reserved), flows.capacity() / HEADROOM_DIVISOR);
        long spare = Math.max(0, flows.capacity() - reserved - headroom);
        for (int k = 0; k < hrtCount; k++) {
            int i = hrt[k];
            FlowSpec spec = flows.reserved(i);
            long quantum = quantum(spec, flows.resolution(i));
            long wanted = needOf(i, spec, flows.demand(i), quantum);
            need[i] = wanted;
            long fromSpare = Math.min(wanted, spare);
            spare -= fromSpare;
            long remaining = wanted - fromSpare;
            int g = groupAt[i];
            remaining = lend(be, beCount, BE, g, spec.flowId(), remaining, true);
            remaining = lend(be, beCount, BE, g, spec.flowId(), remaining, false);
            remaining = lend(lrt, lrtCount, LRT, g, spec.flowId(), remaining, true);
            remaining = lend(lrt, lrtCount, LRT, g, spec.flowId(), remaining, false);
            long fromHeadroom = Math.min(remaining, headroom);
            headroom -= fromHeadroom;
            remaining -= fromHeadroom;
            target[i] += wanted - remaining;
            reportShortfall(flows, i, spec, remaining, quantum, decisions);
        }
        for (int s = 0; s < n; s++) {
            FlowSpec spec = flows.reserved(s);
            if (spec == null || target[s] == flows.assured(s)) {
                continue;
            }
            long from = flows.assured(s);
            long to = target[s];
            flows.assure(s, to, now);
            Decision.Kind kind = spec.serviceClass() == ServiceClass.HRT
                    ? (to > from ? Decision.Kind.GRANTED : Decision.Kind.RELEASED)
                    : (to < from ? Decision.Kind.LENT : Decision.Kind.RETURNED);
            decisions.accept(new Decision(kind, spec.flowId(), spec.serviceClass(), from, to,
                    kind == Decision.Kind.LENT ? beneficiary[s] : -1));
        }
    }

    /**
     * What a congested flow needs beyond its reservation, in whole quanta, held against a small
     * fall: a need falls at once when the demand is two quanta below it, and otherwise only once
     * every period for {@link #SETTLE_PERIODS} in a row asked for less, and then to the most of
     * those. So a flow that publishes at its reservation, a sample more in one period and as many
     * as reserved in the next, keeps what it was granted rather than moving rates every period,
     * and one whose surge ended gives everything back within a second, though a moving average
     * that falls back to a rate only nears it.
     */
    private long needOf(int slot, FlowSpec spec, double demand, long quantum) {
        long previous = need[slot];
        long most = spec.ceilingRate() - spec.assuredRate(); // never past the ceiling, rounding included
        double wanted = Math.min(demand, spec.ceilingRate()) - spec.assuredRate();
        long fresh = 0;
        double over = wanted - quantum / 16.0; // within a sixteenth of a step of a level: at it, as an average nears it
        if (over > 0) { // NaN is not
            double quanta = Math.ceil(over / quantum);
            fresh = quanta >= (double) most / quantum ? most : Math.min(most, (long) quanta * quantum);
        }
        if (fresh >= previous || wanted <= previous - 2.0 * quantum) {
            lowFor[slot] = 0;
            return fresh;
        }
        lowMost[slot] = lowFor[slot] == 0 ? fresh : Math.max(lowMost[slot], fresh);
        if (++lowFor[slot] < SETTLE_PERIODS) {
            return Math.min(previous, most);
        }
        lowFor[slot] = 0;
        return lowMost[slot];
    }

    /** A need's step: 1/64 of the reservation, and no finer than the estimator can tell (one event a period). */
    private static long quantum(FlowSpec spec, long resolution) {
        return Math.max(Math.max(1, spec.assuredRate() / QUANTA_PER_RESERVATION), resolution);
    }

    /** Takes up to {@code remaining} from the victims of one class, of the flow's group or of the others. */
    private long lend(int[] victims, int count, int victimClass, int group, long congestedId, long remaining,
                      boolean sameGroup) {
        // Victims before the class's first open one have lent all they can: skipped by every later pass.
        for (int k = firstOpen[victimClass]; k < count && remaining > 0; k++) {
            int v = victims[k];
            long left = target[v] - minimum[v];
            if (left <= 0) {
                if (k == firstOpen[victimClass]) {
                    firstOpen[victimClass]++;
                }
                continue;
            }
            if ((groupAt[v] == group) != sameGroup) {
                continue;
            }
            long give = Math.min(remaining, left);
            target[v] -= give;
            remaining -= give;
            if (beneficiary[v] < 0) {
                beneficiary[v] = congestedId;
            }
            if (give == left && k == firstOpen[victimClass]) {
                firstOpen[victimClass]++;
            }
        }
        return remaining;
    }

    /** Reports a shortfall of the flow that held {@code slot} as met: it is gone, or no longer HRT. */
    private void closeShortfall(LinkFlows flows, int slot, Consumer<Decision> decisions) {
        if (unmet[slot] > 0) {
            unmet[slot] = 0;
            if (flows.reserved(slot) != null) {
                flows.shortfall(slot, 0);
            }
            decisions.accept(new Decision(Decision.Kind.MET, flowAt[slot], ServiceClass.HRT, 0, 0, -1));
        }
    }

    private void reportShortfall(LinkFlows flows, int slot, FlowSpec spec, long shortfall, long quantum,
                                 Consumer<Decision> decisions) {
        if (shortfall > 0 && (unmet[slot] == 0 || Math.abs(shortfall - unmet[slot]) >= quantum)) {
            unmet[slot] = shortfall;
            flows.shortfall(slot, shortfall);
            long has = target[slot];
            decisions.accept(new Decision(Decision.Kind.UNMET, spec.flowId(), spec.serviceClass(), has,
                    Saturating.add(has, shortfall), -1));
        } else if (shortfall == 0 && unmet[slot] > 0) {
            unmet[slot] = 0;
            flows.shortfall(slot, 0);
            decisions.accept(new Decision(Decision.Kind.MET, spec.flowId(), spec.serviceClass(), target[slot], target[slot], -1));
        }
    }

    /** Whether a flow's correlation group changed in place (a modified flow); cheap: reference compares first. */
    private boolean groupsChanged(LinkFlows flows, int n) {
        for (int s = 0; s < n; s++) {
            FlowSpec spec = flows.reserved(s);
            if (spec != null && spec.correlationGroup() != groupName[s] && !spec.correlationGroup().equals(groupName[s])) {
                return true;
            }
        }
        return false;
    }

    /** Numbers the flows' correlation groups, so lending compares ints; allocates, on a change of flows only. */
    private void numberGroups(LinkFlows flows, int n) {
        Map<String, Integer> numbers = new HashMap<>();
        for (int s = 0; s < n; s++) {
            FlowSpec spec = flows.reserved(s);
            groupName[s] = spec == null ? null : spec.correlationGroup();
            groupAt[s] = spec == null ? -1 : numbers.computeIfAbsent(spec.correlationGroup(), k -> numbers.size());
        }
    }

    /** Inserts {@code slot} into {@code order[0..count)} by flow id; returns the new count. */
    private static int insert(int[] order, int count, int slot, LinkFlows flows) {
        long id = flows.reserved(slot).flowId();
        int k = count;
        while (k > 0 && flows.reserved(order[k - 1]).flowId() > id) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = slot;
        return count + 1;
    }

    private void grow(int n) {
        hrt = new int[n];
        lrt = new int[n];
        be = new int[n];
        target = new long[n];
        need = new long[n];
        lowFor = new int[n];
        lowMost = new long[n];
        unmet = new long[n];
        beneficiary = new long[n];
        flowAt = new long[n];
        classAt = new ServiceClass[n];
        groupAt = new int[n];
        groupName = new String[n];
        minimum = new long[n];
        hrtCount = 0;
        lrtCount = 0;
        beCount = 0;
        Arrays.fill(flowAt, -1);
    }
}
