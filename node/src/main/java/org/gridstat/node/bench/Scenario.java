package org.gridstat.node.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.filter.RateFilter;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;

/**
 * What the bench sends through the router and how the router is set up for it: the streams the
 * load generator takes turns on, the router's out-links (one sink each) and its flows, given as
 * the same keys a node file's {@code statusRouter.flows} takes.
 *
 * <p>{@link #single()} is one best-effort flow, nothing filtered: the router's bare forwarding
 * path. {@link #mixed()} puts EDF, rate filtering and multicast on the measured path: 20 variables
 * (HRT and LRT with deadlines in every header, BE without), 30 flows on two out-links, 10 variables
 * on both, 13 flows rate-filtered.
 */
record Scenario(String description, List<LoadGenerator.Stream> streams, List<String> links, List<Route> routes) {
    /** Latency bounds stamped as deadlines: NASPI class A for HRT, class B for LRT. */
    static final long HRT_BOUND_NANOS = 50_000_000L;
    static final long LRT_BOUND_NANOS = 100_000_000L;
    /**
     * The publisher rate given to filtered flows, for the filter's jitter tolerance (half its
     * period: 1 ms, the generator's tick in rate searches). The generator sends each variable
     * faster than this at any rate the bench tries; no subscription asks for exactly this rate,
     * which would pass every sample.
     */
    static final int PUBLISHER_HZ = 500;
    static final int BUFFER_EVENTS = 256;

    /** A variable (by stream index) routed on an out-link (by index), at the given subscription rates (none: every sample). */
    record Route(int stream, int link, int[] ratesHz, String budget) {
        boolean filtered() {
            return ratesHz.length > 0;
        }
    }

    /** One best-effort flow, unfiltered, on one out-link: the original bench. */
    static Scenario single() {
        return new Scenario("one BE flow, unfiltered, one out-link",
                List.of(new LoadGenerator.Stream(1, ServiceClass.BE, 0)), List.of("sink"),
                List.of(new Route(0, 0, new int[0], null)));
    }

    private static final int[] ALL = new int[0];

    /**
     * The mixed load: per variable, its class and the rates routed on out-link a and b (ALL: every
     * sample, null: not on that link). Filtered rates sit well below what the generator sends per
     * variable (at least 1 kHz), 10 variables go both ways, and variable 10 carries two
     * subscriptions on one link (the link takes the union of their grids).
     */
    static Scenario mixed() {
        Object[][] table = {
                {ServiceClass.HRT, ALL, ALL},
                {ServiceClass.HRT, ALL, new int[] {120}},
                {ServiceClass.HRT, new int[] {240}, null},
                {ServiceClass.HRT, new int[] {120}, null},
                {ServiceClass.HRT, ALL, null},
                {ServiceClass.HRT, ALL, null},
                {ServiceClass.LRT, ALL, ALL},
                {ServiceClass.LRT, ALL, new int[] {60}},
                {ServiceClass.LRT, new int[] {60}, new int[] {30}},
                {ServiceClass.LRT, new int[] {100, 30}, null},
                {ServiceClass.LRT, ALL, null},
                {ServiceClass.LRT, ALL, null},
                {ServiceClass.BE, ALL, ALL},
                {ServiceClass.BE, ALL, new int[] {10}},
                {ServiceClass.BE, new int[] {50}, ALL},
                {ServiceClass.BE, ALL, new int[] {1}},
                {ServiceClass.BE, new int[] {10}, new int[] {10}},
                {ServiceClass.BE, ALL, null},
                {ServiceClass.BE, new int[] {25}, null},
                {ServiceClass.BE, ALL, null},
        };
        List<LoadGenerator.Stream> streams = new ArrayList<>();
        List<Route> routes = new ArrayList<>();
        for (int s = 0; s < table.length; s++) {
            ServiceClass cls = (ServiceClass) table[s][0];
            long bound = cls == ServiceClass.HRT ? HRT_BOUND_NANOS : cls == ServiceClass.LRT ? LRT_BOUND_NANOS : 0;
            // The rest of an HRT/LRT path after this hop, so the hop orders by a deadline earlier than the end-to-end one.
            String budget = cls == ServiceClass.HRT ? "5ms" : cls == ServiceClass.LRT ? "10ms" : null;
            streams.add(new LoadGenerator.Stream(s + 1, cls, bound));
            for (int link = 0; link < 2; link++) {
                int[] rates = (int[]) table[s][1 + link];
                if (rates != null) {
                    routes.add(new Route(s, link, rates, budget));
                }
            }
        }
        return new Scenario("20 variables (6 HRT, 6 LRT, 8 BE), 30 flows on 2 out-links (10 variables on both),"
                + " 13 flows rate-filtered", streams, List.of("a", "b"), routes);
    }

    /** The router's flows, as maps of the keys a node file's {@code statusRouter.flows} entries take. */
    List<Map<String, Object>> routerFlows() {
        List<Map<String, Object>> flows = new ArrayList<>();
        int id = 1;
        for (Route r : routes) {
            LoadGenerator.Stream stream = streams.get(r.stream());
            Map<String, Object> flow = new LinkedHashMap<>();
            flow.put("id", id++);
            flow.put("variable", stream.variableId());
            flow.put("link", links.get(r.link()));
            flow.put("class", stream.serviceClass().name());
            flow.put("buffer", BUFFER_EVENTS);
            if (r.filtered()) {
                flow.put("rates", Arrays.stream(r.ratesHz()).boxed().toList());
                flow.put("publisher", PUBLISHER_HZ);
            }
            if (r.budget() != null) {
                flow.put("budget", r.budget());
            }
            flows.add(flow);
        }
        return flows;
    }

    /** What the router should deliver to each link's sink of what the generator sends, with its filters' rule. */
    ExpectedDelivery routerExpectation() {
        long publisherInterval = SampleGrid.ofRate(PUBLISHER_HZ).intervalNanos();
        List<ExpectedDelivery.Flow> flows = new ArrayList<>();
        for (Route r : routes) {
            RateFilter filter = null;
            if (r.filtered()) {
                long[] intervals = Arrays.stream(r.ratesHz()).mapToLong(hz -> SampleGrid.ofRate(hz).intervalNanos()).toArray();
                filter = new RateFilter(intervals, publisherInterval);
            }
            flows.add(new ExpectedDelivery.Flow(r.stream(), streams.get(r.stream()).variableId(), r.link(), filter));
        }
        return new ExpectedDelivery(flows, streams.size());
    }

    /** Latency groups for sinks: each variable id's service class ordinal among {@link #classes()}. */
    int[] classOfVariable() {
        int[] groups = new int[CountingSink.MAX_VARIABLE];
        for (LoadGenerator.Stream s : streams) {
            groups[(int) s.variableId()] = classes().indexOf(s.serviceClass());
        }
        return groups;
    }

    /** The classes latency is reported by. */
    List<ServiceClass> classes() {
        return List.of(ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE);
    }

    long filteredRoutes() {
        return routes.stream().filter(Route::filtered).count();
    }
}
