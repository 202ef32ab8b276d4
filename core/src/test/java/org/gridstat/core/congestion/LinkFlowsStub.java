package org.gridstat.core.congestion;

import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkFlows;

/** A link's flows as plain arrays: reservations, demands set by the test, assured rates the policy sets. */
final class LinkFlowsStub implements LinkFlows {
    final FlowSpec[] specs;
    final double[] demand;
    final long[] assured;
    final long[] shortfall;
    /** The link's capacity: by default exactly what the flows reserve, so nothing is spare. */
    long capacity = -1;

    LinkFlowsStub(int slots) {
        specs = new FlowSpec[slots];
        demand = new double[slots];
        assured = new long[slots];
        shortfall = new long[slots];
    }

    /** Puts a flow in {@code slot}, assured its reservation, demanding exactly that. */
    LinkFlowsStub flow(int slot, FlowSpec spec) {
        specs[slot] = spec;
        assured[slot] = spec.assuredRate();
        demand[slot] = spec.assuredRate();
        return this;
    }

    void remove(int slot) {
        specs[slot] = null;
    }

    @Override
    public long capacity() {
        if (capacity >= 0) {
            return capacity;
        }
        long sum = 0;
        for (FlowSpec f : specs) {
            sum += f == null ? 0 : f.assuredRate();
        }
        return sum;
    }


    @Override
    public void shortfall(int slot, long bytesPerSecond) {
        if (specs[slot] == null) {
            throw new IllegalStateException("slot " + slot + " is free");
        }
        shortfall[slot] = bytesPerSecond;
    }

    @Override
    public int slotCount() {
        return specs.length;
    }

    @Override
    public FlowSpec reserved(int slot) {
        return specs[slot];
    }

    @Override
    public double demand(int slot) {
        return demand[slot];
    }

    @Override
    public long resolution(int slot) {
        return resolution;
    }

    /** The estimate's resolution every flow has: by default finer than any quantum. */
    long resolution = 0;

    @Override
    public long assured(int slot) {
        return assured[slot];
    }

    @Override
    public void assure(int slot, long assuredRate, long now) {
        if (specs[slot] == null) {
            throw new IllegalStateException("slot " + slot + " is free");
        }
        assured[slot] = assuredRate;
    }
}
