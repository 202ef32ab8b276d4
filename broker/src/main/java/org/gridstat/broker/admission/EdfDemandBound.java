package org.gridstat.broker.admission;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import org.gridstat.core.time.Saturating;

/**
 * The demand-bound test of non-preemptive EDF on one server: whether sporadic tasks, each
 * releasing jobs of at most {@code C} ns of work at least {@code T} ns apart, every job due
 * {@code D} ns after its release, all meet their deadlines when a job may also have to wait
 * {@code B} ns for work already under way that it cannot preempt (a frame on the wire).
 *
 * <p>The demand bound {@code dbf(t) = Σ max(0, ⌊(t − Dᵢ)/Tᵢ⌋ + 1)·Cᵢ} is the most work of jobs
 * both released and due within any interval of length {@code t}. The set is schedulable if
 * {@code dbf(t) + B ≤ t} at every absolute deadline {@code t = Dᵢ + k·Tᵢ} up to {@code L}, the
 * length of the longest busy period: the least fixed point of
 * {@code w = B + Σ ⌈w/Tᵢ⌉·Cᵢ}, which exists only if the utilisation {@code Σ Cᵢ/Tᵢ} is below 1
 * (compared exactly, in fractions, where a double cannot tell)
 * (a deadline missed at {@code t} lies at the end of a busy interval that began at most {@code B}
 * into a job it could not preempt, holds only jobs released and due within it, and is no longer
 * than {@code L}). The test is sufficient, not exact: it charges the whole blocking at every
 * deadline, where the exact test (George, Rivierre and Spuri, 1996) charges only the longest job
 * due later, less one nanosecond.
 *
 * <p>Integer nanoseconds throughout; sums and products saturate at {@link Long#MAX_VALUE} instead
 * of wrapping. The work is bounded: a set whose busy period holds more than {@code maxPoints}
 * deadlines (or whose busy period takes more than that many steps to find) is not checked but
 * answered {@link TooManyPoints}. The time taken is O(n) per step of the busy period plus
 * O(log n) per deadline checked. An instance is a reusable task list (not thread-safe); the
 * static methods take a list.
 */
public final class EdfDemandBound {
    /** The most deadlines checked by default before a set is refused as too costly to check. */
    public static final int DEFAULT_MAX_POINTS = 100_000;

    /** A sporadic task: work per job, least time between releases, relative deadline; ns. */
    public record Task(long costNanos, long periodNanos, long deadlineNanos) {
        public Task {
            if (costNanos <= 0 || periodNanos <= 0 || deadlineNanos < 0) {
                throw new IllegalArgumentException("a task needs C > 0, T > 0 and D >= 0, got C " + costNanos + ", T "
                        + periodNanos + ", D " + deadlineNanos + " ns");
            }
        }
    }

    /** What the test found. */
    public sealed interface Outcome permits Schedulable, Overloaded, TooManyPoints, Missed {
    }

    /** Every deadline in the busy period of {@code busyPeriodNanos} is met; {@code points} were checked. */
    public record Schedulable(long busyPeriodNanos, long points) implements Outcome {
    }

    /** The utilisation {@code Σ C/T} is 1 or more: a busy period never ends. */
    public record Overloaded(double utilisation) implements Outcome {
    }

    /**
     * More than the allowed deadlines to check: {@code points} of them (at least that many if the
     * busy period was not found) in a busy period of {@code busyPeriodNanos} (at least).
     */
    public record TooManyPoints(long points, long busyPeriodNanos, boolean busyPeriodFound, int maxPoints)
            implements Outcome {
    }

    /**
     * The first deadline that may be missed: within an interval of {@code intervalNanos} the jobs
     * due in it, with the blocking, need {@code demandNanos}, more than the interval.
     */
    public record Missed(long intervalNanos, long demandNanos) implements Outcome {
    }

    private long[] cost = new long[8];
    private long[] period = new long[8];
    private long[] deadline = new long[8];
    private int size;
    // The sweep's heap of next deadlines: keys and task indices.
    private long[] heapKey = new long[8];
    private int[] heapTask = new int[8];

    /** Empties the task list. */
    public EdfDemandBound clear() {
        size = 0;
        return this;
    }

    public int size() {
        return size;
    }

    /** Adds a task; see {@link Task} for the constraints. */
    public EdfDemandBound add(long costNanos, long periodNanos, long deadlineNanos) {
        if (costNanos <= 0 || periodNanos <= 0 || deadlineNanos < 0) {
            new Task(costNanos, periodNanos, deadlineNanos); // throws with the message
        }
        if (size == cost.length) {
            int n = size * 2;
            cost = Arrays.copyOf(cost, n);
            period = Arrays.copyOf(period, n);
            deadline = Arrays.copyOf(deadline, n);
        }
        cost[size] = costNanos;
        period[size] = periodNanos;
        deadline[size] = deadlineNanos;
        size++;
        return this;
    }

    public EdfDemandBound add(Task t) {
        return add(t.costNanos(), t.periodNanos(), t.deadlineNanos());
    }

    /** The test of {@code tasks} with {@code blockingNanos} of blocking. */
    public static Outcome check(List<Task> tasks, long blockingNanos, int maxPoints) {
        EdfDemandBound b = new EdfDemandBound();
        tasks.forEach(b::add);
        return b.check(blockingNanos, maxPoints);
    }

    /** {@code dbf(t)} of {@code tasks}: the work of jobs released and due within any interval of length {@code t}. */
    public static long demand(List<Task> tasks, long t) {
        long sum = 0;
        for (Task k : tasks) {
            sum = Saturating.add(sum, times(jobsDue(t, k.periodNanos(), k.deadlineNanos()), k.costNanos()));
        }
        return sum;
    }

    /** The longest busy period of {@code tasks} after {@code blockingNanos} of blocking, or -1 if there is none within {@code maxSteps} steps. */
    public static long busyPeriod(List<Task> tasks, long blockingNanos, int maxSteps) {
        EdfDemandBound b = new EdfDemandBound();
        tasks.forEach(b::add);
        return b.busyPeriod(blockingNanos, maxSteps);
    }

    /** The sum of {@code C/T}. */
    public double utilisation() {
        double u = 0;
        for (int i = 0; i < size; i++) {
            u += (double) cost[i] / period[i];
        }
        return u;
    }

    /**
     * The test of the tasks added, with {@code blockingNanos} of blocking, checking at most
     * {@code maxPoints} deadlines. A set without tasks is schedulable.
     */
    public Outcome check(long blockingNanos, int maxPoints) {
        if (blockingNanos < 0 || maxPoints < 0) {
            throw new IllegalArgumentException("blocking and the number of points must not be negative");
        }
        if (size == 0) {
            return new Schedulable(0, 0);
        }
        double u = utilisation();
        if (u >= 1 || (u > 1 - 1e-9 && atLeastOne())) {
            return new Overloaded(Math.max(u, 1));
        }
        long busy = busyPeriod(blockingNanos, maxPoints);
        if (busy < 0) {
            return new TooManyPoints(maxPoints, -busy - 1, false, maxPoints);
        }
        long points = 0;
        for (int i = 0; i < size; i++) {
            points = Saturating.add(points, jobsDue(busy, period[i], deadline[i]));
        }
        if (points > maxPoints) {
            return new TooManyPoints(points, busy, true, maxPoints);
        }
        return sweep(blockingNanos, busy, points);
    }

    /** Whether {@code Σ C/T >= 1}, in exact fractions: for a sum too near 1 for a double to tell. */
    private boolean atLeastOne() {
        BigInteger num = BigInteger.ZERO;
        BigInteger den = BigInteger.ONE;
        for (int i = 0; i < size; i++) {
            BigInteger t = BigInteger.valueOf(period[i]);
            num = num.multiply(t).add(BigInteger.valueOf(cost[i]).multiply(den));
            den = den.multiply(t);
            BigInteger g = num.gcd(den);
            num = num.divide(g);
            den = den.divide(g);
        }
        return num.compareTo(den) >= 0;
    }

    /**
     * The least fixed point of {@code w = B + Σ ⌈w/T⌉·C}, or {@code -(w + 1)} with the last
     * {@code w} reached if it is not found within {@code maxSteps} steps or overflows.
     */
    long busyPeriod(long blocking, int maxSteps) {
        long w = blocking;
        for (int i = 0; i < size; i++) {
            w = Saturating.add(w, cost[i]);
        }
        for (int step = 0; step <= maxSteps && w != Long.MAX_VALUE; step++) {
            long next = blocking;
            for (int i = 0; i < size; i++) {
                next = Saturating.add(next, times(ceilDiv(w, period[i]), cost[i]));
            }
            if (next == w) {
                return w;
            }
            w = next;
        }
        return -(w == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : w) - 1;
    }

    /** Checks {@code dbf(t) + B <= t} at every deadline up to {@code busy}, in increasing order. */
    private Outcome sweep(long blocking, long busy, long points) {
        if (heapKey.length < size) {
            heapKey = new long[cost.length];
            heapTask = new int[cost.length];
        }
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (deadline[i] <= busy) {
                n = push(n, deadline[i], i);
            }
        }
        long demand = blocking;
        while (n > 0) {
            long t = heapKey[0];
            while (n > 0 && heapKey[0] == t) {
                int i = heapTask[0];
                demand = Saturating.add(demand, cost[i]);
                long next = Saturating.add(t, period[i]);
                if (next <= busy) {
                    replaceTop(n, next, i);
                } else {
                    n = pop(n);
                }
            }
            if (demand > t) {
                return new Missed(t, demand);
            }
        }
        return new Schedulable(busy, points);
    }

    /** {@code max(0, ⌊(t − D)/T⌋ + 1)}: the jobs of a task released and due within {@code t}. */
    private static long jobsDue(long t, long period, long deadline) {
        return t < deadline ? 0 : (t - deadline) / period + 1;
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }

    private static long times(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    // --- a binary min-heap on (heapKey, heapTask), ties by task index ---------------------------

    private int push(int n, long key, int task) {
        int i = n;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(key, task, heapKey[parent], heapTask[parent])) {
                break;
            }
            heapKey[i] = heapKey[parent];
            heapTask[i] = heapTask[parent];
            i = parent;
        }
        heapKey[i] = key;
        heapTask[i] = task;
        return n + 1;
    }

    private int pop(int n) {
        n--;
        if (n > 0) {
            siftDown(n, heapKey[n], heapTask[n]);
        }
        return n;
    }

    private void replaceTop(int n, long key, int task) {
        siftDown(n, key, task);
    }

    private void siftDown(int n, long key, int task) {
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && less(heapKey[child + 1], heapTask[child + 1], heapKey[child], heapTask[child])) {
                child++;
            }
            if (!less(heapKey[child], heapTask[child], key, task)) {
                break;
            }
            heapKey[i] = heapKey[child];
            heapTask[i] = heapTask[child];
            i = child;
        }
        heapKey[i] = key;
        heapTask[i] = task;
    }

    private static boolean less(long k1, int t1, long k2, int t2) {
        return k1 < k2 || (k1 == k2 && t1 < t2);
    }
}
