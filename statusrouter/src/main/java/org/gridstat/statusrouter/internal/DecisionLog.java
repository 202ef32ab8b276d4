package org.gridstat.statusrouter.internal;

import io.netty.util.concurrent.GlobalEventExecutor;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.gridstat.core.congestion.Decision;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.time.Clock;
import org.gridstat.statusrouter.api.CongestionDecision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Congestion control's most recent decisions, for the router's counters: the data-path thread
 * records each one as the engine reports it, and any thread reads a {@link #snapshot}. Recording
 * takes no lock and allocates nothing (the ring is made at start; the oldest decisions are
 * overwritten), except for an {@link Decision.Kind#UNMET} need: that one is also handed to an
 * alarm sink, at most once a second per link, by default a WARN written off the data path
 * ({@link #warnings}).
 *
 * <p>One writer; a reader copies the ring up to the count written, then keeps only the entries
 * the writer cannot have begun to overwrite meanwhile (a seqlock over the whole ring).
 */
final class DecisionLog implements ForwardingEngine.DecisionListener {
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    /** Decisions kept; older ones are forgotten. */
    static final int CAPACITY = 256;
    /** Unmet needs handed to the alarm sink at most this often per link; the others are only kept and counted. */
    static final long ALARM_GAP_NANOS = 1_000_000_000L;

    private final String[] linkNames;
    private final Clock epochClock;
    private final Consumer<CongestionDecision> unmet;
    private final int capacity;
    private final int mask;
    private final Decision[] decisions;
    private final int[] links;
    private final long[] times;
    /** Per link, when an unmet need was last handed to the alarm sink (Long.MIN_VALUE: never). */
    private final long[] alarmedAt;
    private long alarmsHeldBack;
    /** Decisions whose slot the writer has begun to fill; ahead of {@link #written} while it fills one. */
    private volatile long claimed;
    /** Decisions recorded so far; written by the data-path thread only, after the slot it publishes. */
    private volatile long written;

    /**
     * @param linkNames  the out-links' names, by index
     * @param epochClock when each decision was made
     * @param unmet      told of each UNMET decision once, on the data-path thread: it must not block
     */
    DecisionLog(List<String> linkNames, Clock epochClock, Consumer<CongestionDecision> unmet) {
        this(linkNames, epochClock, unmet, CAPACITY);
    }

    /** With room for {@code capacity} decisions, a power of two. */
    DecisionLog(List<String> linkNames, Clock epochClock, Consumer<CongestionDecision> unmet, int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        this.linkNames = linkNames.toArray(new String[0]);
        this.epochClock = epochClock;
        this.unmet = unmet;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.decisions = new Decision[capacity];
        this.links = new int[capacity];
        this.times = new long[capacity];
        this.alarmedAt = new long[this.linkNames.length];
        java.util.Arrays.fill(alarmedAt, Long.MIN_VALUE);
    }

    /**
     * A sink that writes each unmet need as a WARN on Netty's global executor, so a slow log
     * (slf4j-simple writes to standard error as it is called) never holds up forwarding.
     */
    static Consumer<CongestionDecision> warnings(String nodeId) {
        return c -> GlobalEventExecutor.INSTANCE.execute(() -> LOG.warn(
                "router {}, link {}: congestion control cannot meet a need: {} (decision #{})",
                nodeId, c.link(), c.decision(), c.sequence()));
    }

    /** Records a decision; on the data-path thread. */
    @Override
    public void decided(int link, Decision decision) {
        long n = written;
        int slot = (int) (n & mask);
        long at = epochClock.nanos();
        claimed = n + 1;
        VarHandle.storeStoreFence(); // a reader that sees the slot change sees the claim
        decisions[slot] = decision;
        links[slot] = link;
        times[slot] = at;
        written = n + 1; // publishes the slot
        if (decision.kind() == Decision.Kind.UNMET) {
            // At most one alarm a second per link reaches the sink (a WARN, off the data path): a
            // need that changes every period is kept here and counted, not written each time.
            if (alarmedAt[link] == Long.MIN_VALUE || at - alarmedAt[link] >= ALARM_GAP_NANOS) {
                alarmedAt[link] = at;
                unmet.accept(new CongestionDecision(n, at, linkNames[link], decision));
            } else {
                alarmsHeldBack++;
            }
        }
    }

    /** Unmet needs kept but not handed to the alarm sink, being within a second of the link's last one. */
    long alarmsHeldBack() {
        return alarmsHeldBack;
    }

    /** Decisions recorded since the data path started, including those forgotten. */
    long recorded() {
        return written;
    }

    /** The decisions still kept, oldest first; from any thread. */
    List<CongestionDecision> snapshot() {
        long end = written;
        long start = Math.max(0, end - capacity);
        int count = (int) (end - start);
        Decision[] d = new Decision[count];
        int[] l = new int[count];
        long[] t = new long[count];
        for (int k = 0; k < count; k++) {
            int slot = (int) ((start + k) & mask);
            d[k] = decisions[slot];
            l[k] = links[slot];
            t[k] = times[slot];
        }
        VarHandle.acquireFence(); // the copies above are read before the claim below
        // While copying, the writer may have begun decisions end..claimed-1: each overwrites the
        // slot of the decision `capacity` before it.
        long intact = Math.max(start, claimed - capacity);
        List<CongestionDecision> out = new ArrayList<>(count);
        for (long i = intact; i < end; i++) {
            int k = (int) (i - start);
            out.add(new CongestionDecision(i, t[k], linkNames[l[k]], d[k]));
        }
        return out;
    }
}
