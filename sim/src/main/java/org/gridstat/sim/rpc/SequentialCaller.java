package org.gridstat.sim.rpc;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.gridstat.rpc.client.Call;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.CallResult;
import org.gridstat.rpc.client.CallStatistics;
import org.gridstat.rpc.client.RpcClient;
import org.gridstat.sim.Simulation;

/**
 * An operator making calls one after another on simulated time: each call is made a gap after the
 * previous one's result, the first {@code warmUp} are made but not counted, and after the last the
 * simulation stops. What the counted calls came to is in {@link #statistics()}.
 */
public final class SequentialCaller {
    private final Simulation sim;
    private final RpcClient client;
    private final CallPolicy policy;
    private final String operation;
    private final LongFunction<List<Object>> arguments;
    private final int warmUp;
    private final int calls;
    private final LongSupplier gap;
    private final CallStatistics statistics = new CallStatistics();
    private Consumer<CallResult> counted = r -> { };
    private long made;
    private long ended;

    /**
     * @param arguments the arguments of call number {@code i} (from 0, warm-up calls included)
     * @param gap       nanoseconds from a result to the next call, drawn for each call
     */
    public SequentialCaller(Simulation sim, RpcClient client, CallPolicy policy, String operation,
                            LongFunction<List<Object>> arguments, int warmUp, int calls, LongSupplier gap) {
        if (warmUp < 0 || calls < 1) {
            throw new IllegalArgumentException("warm-up calls must be 0 or more and calls 1 or more");
        }
        this.sim = Objects.requireNonNull(sim);
        this.client = Objects.requireNonNull(client);
        this.policy = Objects.requireNonNull(policy);
        this.operation = Objects.requireNonNull(operation);
        this.arguments = Objects.requireNonNull(arguments);
        this.warmUp = warmUp;
        this.calls = calls;
        this.gap = Objects.requireNonNull(gap);
    }

    /** Also tells {@code c} each counted call's result (for figures {@link CallStatistics} does not keep). */
    public SequentialCaller onCounted(Consumer<CallResult> c) {
        this.counted = Objects.requireNonNull(c);
        return this;
    }

    /** Makes the first call at {@code atNanos} of simulated time. */
    public void start(long atNanos) {
        sim.loop().at(atNanos, this::next);
    }

    private void next() {
        long number = made++;
        Call c = client.call(operation, arguments.apply(number), policy);
        // completed in the loop's thread, within a later action: this runs there
        c.result().thenAccept(r -> ended(number, r));
    }

    private void ended(long number, CallResult r) {
        ended++;
        if (number >= warmUp) {
            statistics.add(r);
            counted.accept(r);
        }
        if (ended == (long) warmUp + calls) {
            sim.stop();
        } else {
            sim.loop().after(gap.getAsLong(), this::next);
        }
    }

    /** The counted calls, those after the warm-up. */
    public CallStatistics statistics() {
        return statistics;
    }

    /** Calls made so far, warm-up calls included. */
    public long made() {
        return made;
    }

    /** Whether every call, warm-up calls included, has ended. */
    public boolean finished() {
        return ended == (long) warmUp + calls;
    }
}
