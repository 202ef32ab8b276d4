package org.gridstat.node.bench;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.filter.RateFilter;

/**
 * How many frames each sink should get of what a load generator sent: per flow (one variable to
 * one sink), every frame, or for a rate-filtered flow those its subscriptions' grids select. The
 * filtered counts come from core's {@link RateFilter} fed with the same source times the
 * generator stamped, so they follow the router's rule exactly and a loss is a loss, not a
 * difference of rounding. Like the router's filters, the state outlives {@link #reset()}: only
 * the counts restart.
 *
 * <p>Fed on the generator's event loop while it runs; read by the bench after the run returned.
 */
final class ExpectedDelivery implements LoadGenerator.SendObserver {
    /** One variable's stream to one sink; {@code filter} null for every sample. */
    record Flow(int stream, long variableId, int sink, RateFilter filter) {
    }

    private final Flow[] flows;
    private final int[][] flowsOfStream;
    private final long[] expected;

    ExpectedDelivery(List<Flow> flows, int streams) {
        this.flows = flows.toArray(new Flow[0]);
        this.expected = new long[this.flows.length];
        List<List<Integer>> byStream = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            byStream.add(new ArrayList<>());
        }
        for (int f = 0; f < this.flows.length; f++) {
            Flow flow = this.flows[f];
            if (flow.stream() < 0 || flow.stream() >= streams) {
                throw new IllegalArgumentException("flow " + f + " names stream " + flow.stream() + " of " + streams);
            }
            byStream.get(flow.stream()).add(f);
        }
        this.flowsOfStream = new int[streams][];
        for (int s = 0; s < streams; s++) {
            flowsOfStream[s] = byStream.get(s).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** Every stream's frames, unfiltered, to sink 0: what a relay or the direct path should deliver. */
    static ExpectedDelivery everyFrame(List<LoadGenerator.Stream> streams) {
        List<Flow> flows = new ArrayList<>();
        for (int s = 0; s < streams.size(); s++) {
            flows.add(new Flow(s, streams.get(s).variableId(), 0, null));
        }
        return new ExpectedDelivery(flows, streams.size());
    }

    @Override
    public void sent(int stream, long sourceTimeNanos) {
        for (int f : flowsOfStream[stream]) {
            RateFilter filter = flows[f].filter();
            if (filter == null || filter.accept(sourceTimeNanos)) {
                expected[f]++;
            }
        }
    }

    /** Starts the counts again; the filters keep their state, as the router's do. */
    void reset() {
        java.util.Arrays.fill(expected, 0);
    }

    /** Frames all sinks should have got since the last reset. */
    long expected() {
        long sum = 0;
        for (long e : expected) {
            sum += e;
        }
        return sum;
    }

    /**
     * Frames that did not arrive: for each flow, what it expected beyond what its sink got of its
     * variable (a flow's surplus does not hide another's loss).
     */
    long lost(List<CountingSink> sinks) {
        long[] received = new long[flows.length];
        for (int f = 0; f < flows.length; f++) {
            received[f] = sinks.get(flows[f].sink()).received(flows[f].variableId());
        }
        return lost(received);
    }

    /** As {@link #lost(List)}, given what each flow's sink received of its variable, in flow order. */
    long lost(long[] receivedPerFlow) {
        long lost = 0;
        for (int f = 0; f < flows.length; f++) {
            lost += Math.max(0, expected[f] - receivedPerFlow[f]);
        }
        return lost;
    }

    /** What flow {@code f} should have got since the last reset. */
    long expected(int f) {
        return expected[f];
    }

    int flows() {
        return flows.length;
    }
}
