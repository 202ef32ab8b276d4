package org.gridstat.core.sched;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.Saturating;
import org.gridstat.core.wire.WireFormat;

/**
 * The scheduler of one out-link: what to send next, and when.
 *
 * <ul>
 *   <li>Control events go first, in arrival order, limited only by the link's capacity.</li>
 *   <li>Data events wait in their flow's bounded buffer; a full buffer refuses the event (an
 *       overflow drop). Within the HRT and LRT classes the flow whose head event has the earliest
 *       hop deadline goes first (EDF), the older head among equal deadlines; within BE the
 *       oldest head goes first (FIFO). A flow that changes class is re-sorted by its new class's
 *       key.</li>
 *   <li>Link sharing follows HTB over the hierarchy link → class → flow: flows within their
 *       assured rate are served first, in class priority order (HRT, LRT, BE); then flows above it
 *       borrow, up to their ceiling, from their class while the class is within its rate, and
 *       then from the link while the class is within its ceiling. The link is paced to its
 *       capacity with a small {@linkplain LinkSpec#burst() burst}. Every bucket is exact: it is
 *       refilled for the time elapsed before a departure is charged. A flow and its class are
 *       charged an event's bytes on the wire, its frame and a datagram's IP and UDP headers, the
 *       unit reservations and measured demand are in: charged its frame alone, a flow of small
 *       frames would stay within its assured rate well above it (260-byte frames: 11 % above) and
 *       take the assured rates of lower classes. Events that share a datagram share its headers:
 *       when the datagram closes ({@link #chargeDatagram}) each is given back what it was charged
 *       beyond its share, so a link of packed events is not held below its capacity. The pacer is
 *       charged what the link carries.</li>
 *   <li>The hop deadline only orders events. An event is dropped, and counted as a deadline miss
 *       of its flow, when it reaches the head after its expiry: the latest departure at which it
 *       could still meet its end-to-end deadline. It costs no bandwidth.</li>
 * </ul>
 *
 * <p>Time comes from the caller, every instant on one monotonic nanosecond scale: a router passes
 * its monotonic clock's reading (and converts epoch deadlines to it), the simulator its simulated
 * time. Deadlines and expiries may lie anywhere in {@code long}; nothing overflows. One thread uses
 * a scheduler; {@link #statistics()} may be called from any thread. Nothing is allocated per event
 * once each flow's buffer has grown to its deepest backlog, and memory is bounded by the flows'
 * buffers whatever the offered load.
 *
 * @param <E> the event type: a pooled buffer in a router, a packet record in the simulator
 */
public final class LinkScheduler<E> implements LinkFlows {
    /** A source time that says "none": the flow's demand is then its arrivals' alone. */
    public static final long NO_SOURCE_TIME = Long.MIN_VALUE;
    private static final ServiceClass[] DATA_CLASSES = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};
    private ServiceClass dequeuedClass = ServiceClass.BE;
    private static final int CLASSES = 3;
    private static final int BE = 2;

    /** A flow's spec and counters, published as one so that a reader never pairs two flows' halves. */
    private record Published(FlowSpec spec, QueueCounters counters, long assured, long shortfall, int heldHz) {
    }

    private final EventReleaser<E> releaser;
    private final EstimatorSettings estimator;
    private final int maxFlows;

    // Per flow slot. The data path reads the plain arrays; readers see only `published`.
    private final FlowQueue<E>[] queues;
    private final HtbNode[] flowNodes;
    private final FlowSpec[] specs;
    /** Per slot: the assured rate in force, the reservation's unless a rate policy moved it. */
    private final long[] assured;
    private final int[] flowClass;
    private final QueueCounters[] flowCounters;
    private final AtomicReferenceArray<Published> published;
    private final int[] freeSlots;
    private int freeCount;

    // Per class: flows with backlog that may send on their own rate, and those that may borrow.
    private final HtbNode[] classNodes = new HtbNode[CLASSES];
    private final IndexedMinHeap[] green = new IndexedMinHeap[CLASSES];
    private final IndexedMinHeap[] yellow = new IndexedMinHeap[CLASSES];
    private final QueueCounters[] classCounters = new QueueCounters[CLASSES];
    /** Backlogged flows whose mode improves at a known time, keyed by that time. */
    private final IndexedMinHeap waiting;

    private final FlowQueue<E> control;
    private final QueueCounters controlCounters = new QueueCounters();

    /** The link pacer: a full bucket plus the frame that overdraws it is the link's burst. */
    private final TokenBucket pacer;
    private final long capacity;
    /** The kernel shapes the link: every bucket here is {@link #UNLIMITED}, so events leave in order at once. */
    private final boolean kernelShaped;
    /** Each flow's demand is given by {@link #measuredDemand}, from the kernel's counters. */
    private final boolean demandFromKernel;
    /**
     * A rate no bucket runs short of (its refill overflows to full at once): what a kernel-shaped
     * link's pacer, classes and flows get in place of their rates.
     */
    private static final Shaping UNLIMITED = Shaping.of(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, Shaping.MAX_BURST,
            Shaping.MAX_BURST);

    /** What was released and is not yet in a closed datagram. */
    private final OpenDatagramEvents unframed = new OpenDatagramEvents();

    private long arrivalSequence;
    private long nextTick;
    private long lastTick;
    /** A period was folded in since {@link #takePeriodEnded} was last called. */
    private boolean periodEnded;
    private int backlog;

    /**
     * @param maxFlows most flows the link carries at once; the slots are allocated here, each flow's
     *                 counters when it is added, and its buffer as its backlog grows
     */
    @SuppressWarnings("unchecked")
    public LinkScheduler(LinkSpec link, int maxFlows, EventReleaser<E> releaser, EstimatorSettings estimator, long now) {
        if (maxFlows < 1) {
            throw new IllegalArgumentException("a link needs room for at least one flow");
        }
        this.releaser = releaser;
        this.estimator = estimator;
        this.maxFlows = maxFlows;
        this.kernelShaped = link.kernelShaped();
        this.demandFromKernel = link.demandFromKernel();
        this.queues = new FlowQueue[maxFlows];
        this.flowNodes = new HtbNode[maxFlows];
        this.specs = new FlowSpec[maxFlows];
        this.assured = new long[maxFlows];
        this.flowClass = new int[maxFlows];
        this.flowCounters = new QueueCounters[maxFlows];
        this.published = new AtomicReferenceArray<>(maxFlows);
        this.freeSlots = new int[maxFlows];
        for (int i = 0; i < maxFlows; i++) {
            freeSlots[i] = maxFlows - 1 - i;
        }
        this.freeCount = maxFlows;
        for (int c = 0; c < CLASSES; c++) {
            classNodes[c] = new HtbNode(shaping(link.classShare(DATA_CLASSES[c])), now);
            green[c] = new IndexedMinHeap(maxFlows);
            yellow[c] = new IndexedMinHeap(maxFlows);
            classCounters[c] = new QueueCounters();
        }
        this.waiting = new IndexedMinHeap(maxFlows);
        this.control = new FlowQueue<>(link.controlBuffer());
        this.pacer = kernelShaped ? new TokenBucket(UNLIMITED.rate(), Shaping.MAX_BURST, now)
                : new TokenBucket(link.capacity(), link.burst() - LinkSpec.MAX_FRAME_BYTES, now);
        this.capacity = link.capacity();
        this.lastTick = now;
        this.nextTick = Saturating.add(now, estimator.periodNanos());
    }

    /** The shaping a bucket here gets: its own, or none on a link the kernel shapes. */
    private Shaping shaping(Shaping own) {
        return kernelShaped ? UNLIMITED : own;
    }

    /**
     * Adds a flow.
     *
     * @return the flow's slot, the handle for {@link #enqueue}
     * @throws IllegalStateException if the link already carries {@code maxFlows} flows
     */
    public int addFlow(FlowSpec spec, long now) {
        if (freeCount == 0) {
            throw new IllegalStateException("link carries its maximum of " + maxFlows + " flows");
        }
        int slot = freeSlots[--freeCount];
        specs[slot] = spec;
        assured[slot] = spec.assuredRate();
        queues[slot] = new FlowQueue<>(spec.bufferEvents());
        flowNodes[slot] = new HtbNode(shaping(spec.shaping()), now);
        flowClass[slot] = classIndex(spec.serviceClass());
        flowCounters[slot] = new QueueCounters();
        if (demandFromKernel) {
            flowCounters[slot].demandMeasuredElsewhere();
        }
        published.set(slot, new Published(spec, flowCounters[slot], spec.assuredRate(), 0, 0));
        return slot;
    }

    /**
     * Changes a flow's rates, class or correlation group in place. Its backlog is kept; a class
     * change re-sorts it by the new class's key (hop deadline for HRT and LRT, arrival for BE), so
     * moved events neither jump ahead nor fall behind. A smaller buffer than the backlog keeps the
     * oldest events that fit and drops the rest as overflow.
     */
    public void modifyFlow(int slot, FlowSpec spec, long now) {
        FlowSpec old = requireFlow(slot);
        if (old.flowId() != spec.flowId()) {
            throw new IllegalArgumentException("slot " + slot + " holds flow " + old.flowId() + ", not " + spec.flowId());
        }
        unlink(slot);
        if (spec.bufferEvents() != old.bufferEvents()) {
            FlowQueue<E> from = queues[slot];
            FlowQueue<E> to = new FlowQueue<>(spec.bufferEvents());
            while (!from.isEmpty()) {
                if (to.isFull()) {
                    backlog--;
                    flowCounters[slot].overflow();
                    flowCounters[slot].discarded(1);
                    classCounters[flowClass[slot]].overflow();
                    classCounters[flowClass[slot]].discarded(1);
                    releaser.release(from.pop());
                } else {
                    to.push(from.headEvent(), from.headSize(), from.headDeadline(), from.headExpiry(), from.headOrder(),
                            from.headArrival());
                    from.pop();
                }
            }
            queues[slot] = to;
        }
        int oldClass = flowClass[slot];
        int newClass = classIndex(spec.serviceClass());
        if (oldClass != newClass) {
            int n = queues[slot].size();
            classCounters[oldClass].discarded(n);
            classCounters[newClass].adopted(n);
        }
        specs[slot] = spec;
        flowClass[slot] = newClass;
        if (old.assuredRate() != spec.assuredRate() || old.minimumRate() != spec.minimumRate()
                || old.ceilingRate() != spec.ceilingRate()) {
            assured[slot] = spec.assuredRate(); // the rate policy, if any, is asked again by the engine
            flowNodes[slot].advance(now);
            flowNodes[slot].configure(shaping(spec.shaping()));
        } // the same rates again (a broker's resync): the rate a policy assured, and the tokens, stay
        published.set(slot, new Published(spec, flowCounters[slot], assured[slot], published.get(slot).shortfall(),
                published.get(slot).heldHz()));
        relink(slot, now);
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public void shortfall(int slot, long bytesPerSecond) {
        FlowSpec spec = requireFlow(slot);
        Published p = published.get(slot);
        if (p.shortfall() != bytesPerSecond) {
            published.set(slot, new Published(spec, flowCounters[slot], p.assured(), Math.max(0, bytesPerSecond), p.heldHz()));
        }
    }

    @Override
    public int slotCount() {
        return maxFlows;
    }

    @Override
    public FlowSpec reserved(int slot) {
        return specs[slot];
    }

    @Override
    public double demand(int slot) {
        return flowCounters[slot].demand();
    }

    @Override
    public long resolution(int slot) {
        return (long) Math.ceil(flowCounters[slot].meanWireBytes() * 1e9 / estimator.periodNanos());
    }

    /** Publishes the rate congestion control holds the flow to (0: none), for its statistics; on the writer thread. */
    public void held(int slot, int rateHz) {
        Published p = published.get(slot);
        if (p != null && p.heldHz() != rateHz) {
            published.set(slot, new Published(p.spec(), p.counters(), p.assured(), p.shortfall(), rateHz));
        }
    }

    /**
     * One estimator period's demand of the flow as measured outside (a kernel-shaped link's class
     * counters), bytes per second on the wire; ignored unless the link takes its demand from the
     * kernel ({@link LinkSpec#demandFromKernel()}). On the writer thread.
     */
    public void measuredDemand(int slot, double wireBytesPerSecond) {
        if (demandFromKernel && specs[slot] != null && wireBytesPerSecond >= 0) {
            flowCounters[slot].measured(wireBytesPerSecond, estimator.weight());
        }
    }

    /** Visits every flow with its assured rate in force, mean size on the wire, hold and slack; from any thread (a recent view). */
    public void visitRates(FlowRateVisitor visitor) {
        for (int i = 0; i < maxFlows; i++) {
            Published p = published.get(i);
            if (p != null) {
                visitor.flow(p.spec(), p.assured(), p.shortfall(), p.counters().meanWireBytes(), p.heldHz(),
                        p.counters().leastSlack());
            }
        }
    }

    /** The flow's mean event size on the wire so far, bytes (frame and IP and UDP headers; 0: none yet). */
    public double meanWireBytes(int slot) {
        return flowCounters[slot].meanWireBytes();
    }

    @Override
    public long assured(int slot) {
        return assured[slot];
    }

    @Override
    public void assure(int slot, long assuredRate, long now) {
        FlowSpec spec = requireFlow(slot);
        if (assuredRate < 0) {
            throw new IllegalArgumentException("flow " + spec.flowId() + ": assured rate " + assuredRate + " B/s");
        }
        if (assuredRate == assured[slot]) {
            return;
        }
        unlink(slot);
        assured[slot] = assuredRate;
        published.set(slot, new Published(spec, flowCounters[slot], assuredRate, published.get(slot).shortfall(),
                published.get(slot).heldHz()));
        flowNodes[slot].advance(now);
        flowNodes[slot].configure(shaping(Shaping.of(assuredRate, Math.max(spec.ceilingRate(), assuredRate))));
        relink(slot, now);
    }

    /** Removes a flow; its waiting events are released, uncounted as drops. */
    public void removeFlow(int slot) {
        requireFlow(slot);
        published.set(slot, null);
        unlink(slot);
        FlowQueue<E> q = queues[slot];
        int n = q.size();
        flowCounters[slot].removed(n);
        classCounters[flowClass[slot]].removed(n);
        backlog -= n;
        while (!q.isEmpty()) {
            releaser.release(q.pop());
        }
        specs[slot] = null;
        queues[slot] = null;
        flowNodes[slot] = null;
        flowCounters[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    /**
     * Queues a data event on a flow.
     *
     * @param hopDeadline the time by which the event should leave this hop, its EDF key in HRT and
     *                    LRT ({@link Long#MAX_VALUE} for none)
     * @param expiry      the latest departure at which it can still meet its end-to-end deadline
     *                    ({@link Long#MAX_VALUE} for none); found at the head after it, the event is
     *                    dropped as a deadline miss
     * @return {@code false} if the flow's buffer is full: the event is counted as an overflow drop and
     *         the caller still owns it
     */
    public boolean enqueue(int slot, E event, int bytes, long hopDeadline, long expiry, long now) {
        return enqueue(slot, event, bytes, hopDeadline, expiry, now, NO_SOURCE_TIME);
    }

    /**
     * Queues a data event on a flow as {@link #enqueue(int, Object, int, long, long, long)} does,
     * with its source's timestamp, which keeps the flow's demand estimate steady under arrival
     * jitter (see {@link LinkFlows#demand}); {@link #NO_SOURCE_TIME}: none.
     */
    public boolean enqueue(int slot, E event, int bytes, long hopDeadline, long expiry, long now, long sourceTime) {
        maybeTick(now);
        FlowQueue<E> q = queues[slot];
        int c = flowClass[slot];
        QueueCounters fc = flowCounters[slot];
        if (sourceTime == NO_SOURCE_TIME) {
            fc.arrival(bytes);
        } else {
            fc.arrival(bytes, sourceTime);
        }
        if (expiry != Long.MAX_VALUE) {
            fc.slack(expiry - now);
        }
        classCounters[c].arrival(bytes);
        if (q.isFull()) {
            fc.overflow();
            classCounters[c].overflow();
            return false;
        }
        boolean wasEmpty = q.isEmpty();
        q.push(event, bytes, hopDeadline, expiry, arrivalSequence++, now);
        fc.enqueued();
        classCounters[c].enqueued();
        backlog++;
        if (wasEmpty) {
            relink(slot, now);
        }
        return true;
    }

    /**
     * Queues a control event, served before all data.
     *
     * @return {@code false} if the control buffer is full (counted; the caller still owns the event)
     */
    public boolean enqueueControl(E event, int bytes, long now) {
        controlCounters.arrival(bytes);
        if (control.isFull()) {
            controlCounters.overflow();
            return false;
        }
        control.push(event, bytes, Long.MAX_VALUE, Long.MAX_VALUE, 0, now);
        controlCounters.enqueued();
        backlog++;
        return true;
    }

    /**
     * The event to send now, or {@code null} if none may go now; see {@link #nextWakeNanos} for when
     * to ask again. Events found at the head after their expiry are dropped and released.
     */
    public E dequeue(long now) {
        maybeTick(now);
        if (backlog == 0) {
            return null;
        }
        if (pacer.inDebt()) {
            pacer.advance(now);
            if (pacer.inDebt()) {
                return null;
            }
        }
        if (!control.isEmpty()) {
            dequeuedClass = ServiceClass.CONTROL;
            int bytes = control.headSize();
            long arrived = control.headArrival();
            E e = control.pop();
            backlog--;
            controlCounters.departure(bytes, Saturating.subtract(now, arrived));
            chargeLink(bytes, now);
            unframed.add(-1, 0);
            return e;
        }
        wakeDue(now);
        while (true) {
            int slot = choose(now);
            if (slot < 0) {
                return null;
            }
            FlowQueue<E> q = queues[slot];
            int c = flowClass[slot];
            int bytes = q.headSize();
            long arrived = q.headArrival();
            if (now > q.headExpiry()) {
                E late = q.pop();
                backlog--;
                flowCounters[slot].deadlineMiss();
                classCounters[c].deadlineMiss();
                relink(slot, now);
                releaser.release(late);
                continue;
            }
            E e = q.pop();
            backlog--;
            dequeuedClass = DATA_CLASSES[c];
            flowNodes[slot].charge(bytes + WireFormat.DATAGRAM_OVERHEAD, now);
            classNodes[c].charge(bytes + WireFormat.DATAGRAM_OVERHEAD, now);
            chargeLink(bytes, now);
            unframed.add(slot, specs[slot].flowId());
            long latency = Saturating.subtract(now, arrived);
            flowCounters[slot].departure(bytes, latency);
            classCounters[c].departure(bytes, latency);
            relink(slot, now);
            return e;
        }
    }

    /**
     * When {@link #dequeue} may next return an event: {@code now} or earlier if one may go now,
     * {@link Long#MAX_VALUE} if nothing waits (or only flows that can never send).
     */
    public long nextWakeNanos(long now) {
        if (backlog == 0) {
            return Long.MAX_VALUE;
        }
        long linkReady = pacer.inDebt() ? pacer.readyTime() : now;
        if (!control.isEmpty()) {
            return linkReady;
        }
        wakeDue(now);
        if (choose(now) >= 0) {
            return Math.max(now, linkReady);
        }
        long next = waiting.isEmpty() ? Long.MAX_VALUE : waiting.peekKey();
        for (int c = 0; c < CLASSES; c++) {
            if (!yellow[c].isEmpty()) {
                next = Math.min(next, classNodes[c].upgradeTime());
            }
        }
        return next == Long.MAX_VALUE ? next : Math.max(next, linkReady);
    }

    /** One counter of the flow in {@code slot}; see {@link org.gridstat.core.forward.ForwardingEngine#flowCounter}. */
    public long flowCounter(int slot, QueueCounter counter) {
        return flowCounters[slot].get(counter);
    }

    /** Events waiting on the link, control included. */
    public int backlog() {
        return backlog;
    }

    /** Folds the estimator's period into the moving averages if one has passed; cheap otherwise. */
    public void maybeTick(long now) {
        if (now < nextTick || now <= lastTick) {
            return;
        }
        double elapsed = Saturating.subtract(now, lastTick) / 1e9;
        double w = estimator.weight();
        for (int slot = 0; slot < maxFlows; slot++) {
            if (specs[slot] != null) {
                flowCounters[slot].tick(elapsed, w);
            }
        }
        for (QueueCounters c : classCounters) {
            c.tick(elapsed, w);
        }
        controlCounters.tick(elapsed, w);
        lastTick = now;
        nextTick = Saturating.add(now, estimator.periodNanos());
        periodEnded = true;
    }

    /**
     * Whether an estimator period was folded in since the last call, by {@link #maybeTick} or by an
     * {@link #enqueue} or {@link #dequeue} that passed the period's end first (a router forwards a
     * read batch before its duty cycle runs the estimators); clears it.
     */
    public boolean takePeriodEnded() {
        boolean ended = periodEnded;
        periodEnded = false;
        return ended;
    }

    /** A snapshot of every flow and class; callable from any thread while the link forwards. */
    public LinkStatistics statistics() {
        return statistics(false);
    }

    /**
     * A snapshot of every flow and class; callable from any thread while the link forwards. With
     * {@code endPeriod} it also ends each queue's latency period
     * ({@link QueueStatistics#periodLatencyP99Nanos()}): the next statistics' period starts now. A
     * router's flow reports end a period each; other readers (its counters, logs) do not.
     */
    public LinkStatistics statistics(boolean endPeriod) {
        List<FlowStatistics> flows = new ArrayList<>();
        for (int slot = 0; slot < maxFlows; slot++) {
            Published p = published.get(slot);
            if (p != null) {
                flows.add(new FlowStatistics(p.spec().flowId(), p.spec().serviceClass(), p.counters().snapshot(endPeriod),
                        p.spec().assuredRate(), p.assured(), p.shortfall(), p.heldHz()));
            }
        }
        Map<ServiceClass, QueueStatistics> classes = new EnumMap<>(ServiceClass.class);
        classes.put(ServiceClass.CONTROL, controlCounters.snapshot(endPeriod));
        for (int c = 0; c < CLASSES; c++) {
            classes.put(DATA_CLASSES[c], classCounters[c].snapshot(endPeriod));
        }
        return new LinkStatistics(flows, classes);
    }

    // --- selection -------------------------------------------------------------------------

    /** The flow to serve next under HTB, or -1. Classes are visited in priority order at each level. */
    private int choose(long now) {
        for (int c = 0; c < CLASSES; c++) {
            if (!green[c].isEmpty()) {
                return green[c].peek();
            }
        }
        // No flow has its own tokens: flows above their rate borrow, first from classes within their rate.
        int borrowFromLink = -1;
        for (int c = 0; c < CLASSES; c++) {
            if (yellow[c].isEmpty()) {
                continue;
            }
            HtbNode cls = classNodes[c];
            cls.advance(now);
            int mode = cls.mode();
            if (mode == HtbNode.CAN_SEND) {
                return yellow[c].peek();
            }
            if (mode == HtbNode.MAY_BORROW && borrowFromLink < 0) {
                borrowFromLink = yellow[c].peek();
            }
        }
        return borrowFromLink;
    }

    /** Moves flows whose tokens have refilled back into their class's ready heaps. */
    private void wakeDue(long now) {
        while (!waiting.isEmpty() && waiting.peekKey() <= now) {
            relink(waiting.poll(), now);
        }
    }

    /**
     * Puts a flow where its mode at {@code now} says, scheduling its next upgrade. A flow that stays
     * in the same heap is re-keyed in place, the common case after each send.
     */
    private void relink(int slot, long now) {
        FlowQueue<E> q = queues[slot];
        if (q.isEmpty()) {
            unlink(slot);
            return;
        }
        int c = flowClass[slot];
        // The key follows from the class now, not from when the event arrived.
        long key = c == BE ? q.headOrder() : q.headDeadline();
        HtbNode node = flowNodes[slot];
        node.advance(now);
        int mode = node.mode();
        if (mode == HtbNode.CAN_SEND) {
            yellow[c].remove(slot);
            waiting.remove(slot);
            green[c].put(slot, key, q.headOrder());
            return;
        }
        green[c].remove(slot);
        if (mode == HtbNode.MAY_BORROW) {
            yellow[c].put(slot, key, q.headOrder());
        } else {
            yellow[c].remove(slot);
        }
        long upgrade = node.upgradeTime();
        if (upgrade != Long.MAX_VALUE) {
            waiting.put(slot, upgrade);
        } else {
            waiting.remove(slot);
        }
    }

    private void unlink(int slot) {
        int c = flowClass[slot];
        green[c].remove(slot);
        yellow[c].remove(slot);
        waiting.remove(slot);
    }

    /** The class of the flow whose event {@link #dequeue} returned last ({@code CONTROL} for control traffic). */
    public ServiceClass dequeuedClass() {
        return dequeuedClass;
    }

    /**
     * Charges bytes the link carries beyond its events' frames (a fragment's or a cell's headers
     * the line adds) to the link's own shaper.
     */
    public void chargeFraming(int bytes, long now) {
        chargeLink(bytes, now);
    }

    /**
     * A datagram of the oldest {@code events} events dequeued and not yet in a closed datagram
     * closes, carrying {@code framingBytes} beyond their frames (IP and UDP headers, a batch's
     * header and length table): the link's shaper is charged them, and each event's flow and class,
     * charged a whole datagram's headers when it left, is given back what it was charged beyond its
     * share (nothing for a lone event), at most to a full bucket.
     */
    public void chargeDatagram(int framingBytes, int events, long now) {
        chargeLink(framingBytes, now);
        long saved = (long) WireFormat.DATAGRAM_OVERHEAD * events - framingBytes;
        int each = events > 0 && saved > 0 ? (int) Math.min(Integer.MAX_VALUE, saved / events) : 0;
        for (int i = 0; i < events && !unframed.isEmpty(); i++) {
            int slot = unframed.headSlot();
            long flowId = unframed.headFlow();
            unframed.removeHead();
            if (each > 0 && slot >= 0 && specs[slot] != null && specs[slot].flowId() == flowId) {
                flowNodes[slot].refund(each, now);
                classNodes[flowClass[slot]].refund(each, now);
                relink(slot, now);
            }
        }
    }

    private void chargeLink(int bytes, long now) {
        pacer.advance(now);
        pacer.charge(bytes);
    }

    private FlowSpec requireFlow(int slot) {
        if (slot < 0 || slot >= maxFlows || specs[slot] == null) {
            throw new IllegalArgumentException("no flow in slot " + slot);
        }
        return specs[slot];
    }

    private static int classIndex(ServiceClass c) {
        switch (c) {
            case HRT:
                return 0;
            case LRT:
                return 1;
            case BE:
                return 2;
            default:
                throw new IllegalArgumentException("control traffic has no flows");
        }
    }
}
