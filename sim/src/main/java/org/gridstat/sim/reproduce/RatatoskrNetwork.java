package org.gridstat.sim.reproduce;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.broker.install.FlowRates;
import org.gridstat.broker.topology.Link;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.sim.net.LinkModel;
import org.gridstat.sim.scenario.Scenario;

/**
 * The network of the Ratatoskr evaluation: 13 status routers forming two disjoint paths between
 * the control center's router {@code cc} and the substation's {@code sub}: path A over
 * {@code a1..a5} (6 links), path B over {@code b1..b6} (7 links), every link in both directions,
 * 1 ms of propagation delay, 100 Mbit/s. The RPC client is on {@code cc}'s delivery link
 * {@code client}, the server on {@code sub}'s delivery link {@code server}.
 *
 * <p>A 2WoPS connection per spatial level {@code k} (1 and 2): the client publishes
 * {@code rpc/request/kK} at {@code cc}, subscribed by the server at {@code sub} over {@code k}
 * disjoint paths; the server publishes {@code rpc/reply/kK} at {@code sub}, subscribed by the
 * client over {@code k} paths. Each is an HRT flow declared at 1,000 Hz (the rate filter then
 * passes every event: copies 2 ms apart and retries are never thinned) with a latency bound of
 * 12.5 ms, so a try's acknowledgement timeout is 25 ms (twice the bound), the published base.
 *
 * <p>Faults on the inter-router links only (delivery links are the hosts' own): omission with
 * probability {@code f} per packet and link, and outages ("duration faults") of a fixed length
 * starting at the times of a Poisson process per directed link (mean time from the end of one to
 * the start of the next), as the routers' link emulation draws them.
 */
public final class RatatoskrNetwork {
    public static final long MS = 1_000_000L;
    public static final long S = 1_000_000_000L;
    public static final String CLIENT_ROUTER = "cc";
    public static final String SERVER_ROUTER = "sub";
    public static final String CLIENT_LINK = "client";
    public static final String SERVER_LINK = "server";
    public static final long LINK_DELAY = MS;
    /**
     * 100 Mbit/s. The published setup gives the links' delay only; at 10 Mbit/s the broker's EDF
     * test refuses the flows: a hop's deadline (about 1 ms once its propagation is taken off) is
     * shorter than the largest datagram already on the wire (1.2 ms at 10 Mbit/s) and a frame.
     */
    public static final long LINK_CAPACITY = 12_500_000;
    /**
     * Each router's queueing budget in admission: 250 us. The broker admits a path if its links'
     * propagation and transmission and its routers' budgets fit the 12.5 ms bound; path B (7 links
     * of 1.18 ms, 8 routers) leaves 4.2 ms for 8 routers, so the default 1 ms would refuse both paths.
     */
    public static final long QUEUEING_BUDGET = 250_000;
    /** Each direction's latency bound: a try is acknowledged within twice it, 25 ms. */
    public static final long LATENCY_BOUND = 12_500_000L;
    /** Every RPC variable is declared and subscribed at this interval (1,000 Hz). */
    public static final long INTERVAL = MS;
    /** The frame size the broker reserves for: a status event carrying a 2WoPS frame of a request. */
    public static final int FRAME_BYTES = 200;
    /** The spatial levels a connection offers: one path, or both. */
    public static final int[] PATH_LEVELS = {1, 2};
    public static final int PATH_A_LINKS = 6;
    public static final int PATH_B_LINKS = 7;
    /** Inter-router links, each direction counted: where outages strike. */
    public static final int DIRECTED_LINKS = 2 * (PATH_A_LINKS + PATH_B_LINKS);

    private RatatoskrNetwork() {
    }

    /** The routers of path A, then path B, between the two ends. */
    public static List<String> pathA() {
        return List.of(CLIENT_ROUTER, "a1", "a2", "a3", "a4", "a5", SERVER_ROUTER);
    }

    public static List<String> pathB() {
        return List.of(CLIENT_ROUTER, "b1", "b2", "b3", "b4", "b5", "b6", SERVER_ROUTER);
    }

    public static Topology topology() {
        Topology.Builder b = Topology.builder();
        List<String> routers = new ArrayList<>(pathA());
        pathB().stream().filter(r -> !routers.contains(r)).forEach(routers::add);
        for (String r : routers) {
            b.router(r, 1_000_000, QUEUEING_BUDGET, "");
        }
        for (List<String> path : List.of(pathA(), pathB())) {
            for (int i = 0; i + 1 < path.size(); i++) {
                b.link(path.get(i), path.get(i + 1), LINK_CAPACITY, LINK_DELAY, Topology.Builder.defaultShares());
                b.link(path.get(i + 1), path.get(i), LINK_CAPACITY, LINK_DELAY, Topology.Builder.defaultShares());
            }
        }
        return b.build();
    }

    /**
     * No congestion control, and the routers' rate estimators tick once a minute: nothing here
     * reads the rates, and at the default second 13 idle routers would wake 13 times per simulated
     * second between calls that are many seconds apart.
     */
    static final Scenario.Congestion CONGESTION = new Scenario.Congestion(false, false,
            new EstimatorSettings(60 * S, 0.5), FlowRates.DEFAULT);

    public static String requestVariable(int paths) {
        return "rpc/request/k" + paths;
    }

    public static String replyVariable(int paths) {
        return "rpc/reply/k" + paths;
    }

    /** The label of the subscription that carries {@code variable} to its subscriber. */
    public static String subscriptionLabel(String variable) {
        return variable;
    }

    /**
     * The scenario: the RPC variables (declared, never published by a periodic source: the RPC
     * endpoints publish them), their subscriptions, the links' omission and outages.
     *
     * @param omission         each inter-router link's loss probability per packet
     * @param outageEveryNanos mean time between outages of each directed inter-router link, 0 for none
     * @param outageForNanos   each outage's length
     * @param durationNanos    how long the run lasts
     */
    public static Scenario scenario(double omission, long outageEveryNanos, long outageForNanos, long durationNanos, long seed) {
        Topology t = topology();
        List<Scenario.Variable> variables = new ArrayList<>();
        List<Scenario.Subscription> subscriptions = new ArrayList<>();
        for (int k : PATH_LEVELS) {
            variables.add(variable(requestVariable(k), CLIENT_ROUTER, durationNanos));
            variables.add(variable(replyVariable(k), SERVER_ROUTER, durationNanos));
            subscriptions.add(subscription(requestVariable(k), SERVER_ROUTER, SERVER_LINK, k));
            subscriptions.add(subscription(replyVariable(k), CLIENT_ROUTER, CLIENT_LINK, k));
        }
        Map<String, LinkModel> links = new LinkedHashMap<>();
        for (Link l : t.links()) {
            links.put(l.name(), new LinkModel(LINK_CAPACITY, LINK_DELAY, LinkModel.DEFAULT_MTU, LinkModel.DEFAULT_QUEUE_PACKETS,
                    LinkModel.Discipline.SCHEDULER, omission, LinkModel.BurstLoss.NONE, 0, 0));
        }
        List<Scenario.Change> timeline = outageEveryNanos > 0
                ? outages(outageEveryNanos, outageForNanos, seed).timeline(durationNanos) : List.of();
        return new Scenario("ratatoskr", t, durationNanos, durationNanos, seed, Scenario.Admission.FULL, links, variables,
                subscriptions, List.of(), timeline, CONGESTION);
    }

    /**
     * The outages of every inter-router link (both directions): fixed length, Poisson starts from
     * the end of the previous one, as the routers' link emulation draws them. The scenario's
     * timeline holds them; a long run draws them as it goes instead ({@link LinkOutages#drive}).
     */
    static LinkOutages outages(long everyNanos, long forNanos, long seed) {
        return new LinkOutages(topology().links().stream().map(Link::name).toList(), everyNanos, forNanos, seed);
    }

    private static Scenario.Variable variable(String name, String router, long durationNanos) {
        // starts at the end of the run: the endpoints publish it, no periodic source
        return new Scenario.Variable(name, router, FRAME_BYTES, INTERVAL, ServiceClass.HRT, "rpc", durationNanos, 0,
                LATENCY_BOUND, 0);
    }

    private static Scenario.Subscription subscription(String variable, String router, String link, int paths) {
        return new Scenario.Subscription(subscriptionLabel(variable), variable, router, link, QosSpec.builder()
                .interval(Duration.ofNanos(INTERVAL)).latencyBound(Duration.ofNanos(LATENCY_BOUND)).paths(paths)
                .serviceClass(ServiceClass.HRT).build(), 0);
    }

    /**
     * The analysis of early success: a copy crosses a path of {@code h} links with probability
     * (1 − f)^h, each link up with probability {@code up}; a direction succeeds if any of its
     * copies over any of its paths does; a call succeeds early if both directions do (they cross
     * different directed links, so independently). Temporal copies are independent under omission
     * and share a link's outage (1 s against 2 ms apart), so with outages the copies of a try count
     * as one.
     *
     * @param up the probability that a link is up (1 − D/(M + D) for outages of length D every M)
     */
    public static double earlySuccess(double f, double up, int paths, int copies) {
        double direction = direction(f, up, paths, copies);
        return direction * direction;
    }

    /** One direction's probability of success, over path A alone ({@code paths} 1) or both. */
    public static double direction(double f, double up, int paths, int copies) {
        double failAll = 1;
        int[] lengths = paths == 1 ? new int[] {PATH_A_LINKS} : new int[] {PATH_A_LINKS, PATH_B_LINKS};
        for (int h : lengths) {
            double pathUp = Math.pow(up, h);
            double copyThrough = Math.pow(1 - f, h);
            // the path is up (all copies then face omission alone), or down (every copy lost)
            failAll *= pathUp * Math.pow(1 - copyThrough, copies) + (1 - pathUp);
        }
        return 1 - failAll;
    }

    /**
     * The mean time between outages of each directed link when the network as a whole has one
     * every {@code networkEveryNanos}, each striking one of its {@link #DIRECTED_LINKS} links at
     * random: a Poisson process thinned at random is one Poisson process per link.
     */
    public static long perLinkEvery(long networkEveryNanos) {
        return networkEveryNanos * DIRECTED_LINKS;
    }

    /** The fraction of time a link is up, outages of {@code forNanos} every {@code everyNanos} on average. */
    public static double up(long everyNanos, long forNanos) {
        return everyNanos <= 0 ? 1 : everyNanos / (double) (everyNanos + forNanos);
    }
}
