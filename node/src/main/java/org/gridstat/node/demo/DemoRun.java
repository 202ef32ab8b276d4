package org.gridstat.node.demo;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;

/**
 * The demo: a router node in its own Equinox framework, a synthetic PMU publishing one variable
 * to it and a subscriber behind it, with the received rate and latency printed each second.
 */
public final class DemoRun {
    static final VariableName VARIABLE = VariableName.of("utilityA/sub1/pmu1/freq");
    static final VariableId VARIABLE_ID = VariableId.of(1);
    /** Carries the warm-up burst over the same route; the monitor ignores it. */
    static final VariableId WARMUP_ID = VariableId.of(2);
    private static final int WARMUP_EVENTS = 20_000;
    static final String STATUS_ROUTER_SERVICE = "org.gridstat.statusrouter.api.StatusRouter";

    private final Path bundles;
    private final int routerPort;
    private final int subscriberPort;
    private final double rateHz;
    private final int seconds;
    private final PrintStream out;

    public DemoRun(Path bundles, int routerPort, int subscriberPort, double rateHz, int seconds, PrintStream out) {
        this.bundles = bundles;
        this.routerPort = routerPort;
        this.subscriberPort = subscriberPort;
        this.rateHz = rateHz;
        this.seconds = seconds;
        this.out = out;
    }

    /** Runs the demo; returns the process exit code: 0 if every sample sent arrived. */
    public int run() throws InterruptedException {
        NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
        router.bind = "127.0.0.1:" + routerPort;
        router.routes = List.of(
                new NodeConfig.RouteEntry(VARIABLE_ID.toString(), List.of("127.0.0.1:" + subscriberPort)),
                new NodeConfig.RouteEntry(WARMUP_ID.toString(), List.of("127.0.0.1:" + subscriberPort)));
        NodeConfig config = NodeConfig.of("demo-router", null, router);

        out.printf("GridStat demo: PMU %s (id %s) at %s Hz -> router 127.0.0.1:%d -> subscriber 127.0.0.1:%d%n",
                VARIABLE, VARIABLE_ID, fmt(rateHz), routerPort, subscriberPort);
        try (EquinoxNode node = EquinoxNode.start(bundles, config)) {
            if (node.awaitService(STATUS_ROUTER_SERVICE, EquinoxNode.TIMEOUT_MILLIS) == null) {
                out.println("the status router did not start; inactive bundles: " + node.inactiveBundles());
                return 1;
            }
            LatencyMonitor monitor = new LatencyMonitor(VARIABLE_ID.value());
            try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", subscriberPort), monitor);
                 Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", routerPort))) {
                warmUp(publisher);
                SyntheticPmu pmu = new SyntheticPmu(
                        publisher.publication(VARIABLE_ID, ServiceClass.HRT, Duration.ofMillis(50)), SystemClock.INSTANCE, rateHz);
                Thread pmuThread = new Thread(pmu, "gridstat-demo-pmu");
                pmuThread.setDaemon(true);
                pmuThread.start();
                Thread.sleep(500);
                // A threshold slightly ahead, so publisher and subscriber start counting at the same sample.
                long measureFrom = SystemClock.INSTANCE.nanos() + 100_000_000L;
                monitor.measureFrom(measureFrom);
                pmu.countFrom(measureFrom);
                Thread.sleep(100);
                monitor.takeInterval();
                report(monitor);
                pmu.stop();
                pmuThread.join(1000);
                // Let the last samples arrive; only what has not come after 2 s counts as lost.
                long settle = System.nanoTime() + 2_000_000_000L;
                while (monitor.received() < pmu.published() && System.nanoTime() < settle) {
                    Thread.sleep(10);
                }
                monitor.takeInterval();
                return summarize(pmu.published(), monitor, subscriber);
            }
        }
    }

    /**
     * At 60 Hz a freshly started JVM would still be interpreting the data path after minutes; a
     * burst through the same route compiles it, so the figures show the steady-state path.
     */
    private void warmUp(Publisher publisher) throws InterruptedException {
        var warmup = publisher.publication(WARMUP_ID, ServiceClass.BE, null);
        byte[] payload = new byte[212];
        for (int i = 0; i < WARMUP_EVENTS; i++) {
            warmup.publish(payload, 0, payload.length, SystemClock.INSTANCE.nanos());
            if (i % 500 == 499) {
                Thread.sleep(2); // stay within the socket buffers
            }
        }
    }

    private void report(LatencyMonitor monitor) throws InterruptedException {
        out.println("(after a warm-up burst of " + WARMUP_EVENTS + " events through the same route)");
        out.println("  time    received   latency p50      p99      max   (source timestamp to delivery)");
        long start = System.nanoTime();
        long lastCount = 0;
        for (int s = 1; s <= seconds; s++) {
            long wake = start + s * 1_000_000_000L;
            long now;
            while ((now = System.nanoTime()) < wake) {
                Thread.sleep(Math.max(1, (wake - now) / 1_000_000));
            }
            Histogram h = monitor.takeInterval();
            long count = monitor.received();
            out.printf("  %4d s  %5d /s   %9s %9s %9s%n", s, count - lastCount,
                    ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()));
            lastCount = count;
        }
    }

    private int summarize(long sent, LatencyMonitor monitor, Subscriber subscriber) {
        Histogram t = monitor.total();
        long received = monitor.received();
        long lost = Math.max(0, sent - received);
        out.println();
        out.printf("summary: sent %d, received %d, lost %d (%.2f %%), sequence gaps %d, malformed %d%n", sent, received,
                lost, sent == 0 ? 0.0 : 100.0 * lost / sent, monitor.gaps(), malformed(subscriber));
        out.printf("latency: p50 %s, p99 %s, p99.9 %s, max %s over %d samples%n", ms(t.getValueAtPercentile(50)),
                ms(t.getValueAtPercentile(99)), ms(t.getValueAtPercentile(99.9)), ms(t.getMaxValue()), t.getTotalCount());
        if (received == 0) {
            out.println("no sample arrived: the stream is broken");
            return 1;
        }
        if (lost > 0) {
            out.println(lost + " sample(s) were lost. The router drops samples that are already past their 50 ms"
                    + " deadline; on a machine too busy to publish or forward on time, that is where they go.");
            return 1;
        }
        return 0;
    }

    private static long malformed(Subscriber subscriber) {
        long n = 0;
        for (RejectReason r : RejectReason.values()) {
            n += subscriber.rejected(r);
        }
        return n;
    }

    private static String ms(long micros) {
        return String.format("%.3f ms", micros / 1000.0);
    }

    private static String fmt(double hz) {
        return hz == Math.rint(hz) ? Long.toString((long) hz) : Double.toString(hz);
    }
}
