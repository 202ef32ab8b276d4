package org.gridstat.sim.reproduce;

import java.util.BitSet;
import java.util.List;
import org.gridstat.rpc.server.Actuator;

/**
 * The substation's breaker in the Ratatoskr experiments: each call passes its own number, so the
 * actuator can tell a call run twice (at-most-once broken) from two calls.
 */
final class CountedBreaker implements Actuator {
    private final BitSet opened = new BitSet();
    private long runs;

    @Override
    public Object invoke(List<Object> arguments) {
        runs++;
        opened.set(Math.toIntExact((Long) arguments.get(0)));
        return Boolean.TRUE;
    }

    /** Times it ran. */
    long runs() {
        return runs;
    }

    /** Distinct calls it ran for. */
    long distinctCalls() {
        return opened.cardinality();
    }
}
