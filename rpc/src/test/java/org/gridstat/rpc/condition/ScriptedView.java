package org.gridstat.rpc.condition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A status view set up by a test. It records every read, and fails the test if a value or a
 * source time is asked of a variable without a sample: the condition must ask known() first.
 */
final class ScriptedView implements StatusView {
    private record Sample(double value, long sourceTimeNanos) {
    }

    private final Map<String, Sample> samples = new HashMap<>();
    final List<String> reads = new ArrayList<>();

    ScriptedView with(String variable, double value) {
        return with(variable, value, 0);
    }

    ScriptedView with(String variable, double value, long sourceTimeNanos) {
        samples.put(variable, new Sample(value, sourceTimeNanos));
        return this;
    }

    @Override
    public boolean known(String variable) {
        reads.add("known " + variable);
        return samples.containsKey(variable);
    }

    @Override
    public double value(String variable) {
        reads.add("value " + variable);
        return sample(variable).value();
    }

    @Override
    public long sourceTimeNanos(String variable) {
        reads.add("time " + variable);
        return sample(variable).sourceTimeNanos();
    }

    private Sample sample(String variable) {
        Sample s = samples.get(variable);
        if (s == null) {
            throw new AssertionError("read of " + variable + ", which has no sample");
        }
        return s;
    }
}
