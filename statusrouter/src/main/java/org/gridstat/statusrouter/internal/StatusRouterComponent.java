package org.gridstat.statusrouter.internal;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.time.Saturating;
import org.gridstat.statusrouter.api.RouterCounters;
import org.gridstat.statusrouter.api.StatusRouter;
import org.gridstat.statusrouter.spi.CongestionControl;
import org.gridstat.statusrouter.spi.KernelShaping;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status router as a Declarative Services component. It starts when Config Admin holds a
 * configuration for {@value #PID} and stops, closing its sockets, when that configuration goes or
 * the bundle stops. A changed configuration restarts the data plane.
 */
@Component(service = StatusRouter.class, configurationPid = StatusRouterComponent.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
public final class StatusRouterComponent implements StatusRouter {
    public static final String PID = "org.gridstat.statusrouter";
    private static final Logger LOG = LoggerFactory.getLogger(StatusRouterComponent.class);

    /** Configuration keys; see the README's configuration section. */
    @interface Config {
        String node_id() default "router";

        String data_bind() default "127.0.0.1:9470";

        /** A second data port for HRT and LRT frames, read first under epoll (a second channel under NIO); empty: none. */
        String priority_bind() default "";

        /** Synthetic frames run through the data path before the ports open, so it starts compiled; 0: none. */
        int warm_up_frames() default org.gridstat.core.egress.DataPathWarmUp.DEFAULT_FRAMES;

        int event_loops() default 1;

        /** The event loops poll without sleeping: lowest hop latency, each loop's CPU kept busy. */
        boolean busy_poll() default false;

        /** UDP segmentation offload on the out-links and receive coalescing on the data ports, under epoll. */
        boolean udp_offload() default true;

        String transport() default "auto";

        int socket_buffer_bytes() default 4 << 20;

        /** Out-links, one line each: {@code name=... address=host:port capacity=... hrt=50 lrt=30 be=20 ...}. */
        String[] links() default {};

        /** Flows, one line each: {@code id=... variable=... link=... class=HRT assured=... rates=60,20 ...}. */
        String[] flows() default {};

        /** Shorthand: {@code <variable id> -> host:port, ...}, a best-effort flow per destination. */
        String[] routes() default {};

        /**
         * The broker replicas' control addresses (host:port, comma-separated; only the leader
         * listens); empty: flows come from configuration only.
         */
        String broker_address() default "";

        /** How often the statistics of the broker's flows are reported to it, ms; 0: never. */
        long report_period_ms() default 1000;

        /** How often a heartbeat goes to the broker when nothing else did, ms. */
        long heartbeat_ms() default 1000;

        /** How long a silent broker is kept before the next replica is tried, ms; above heartbeat.ms. */
        long heartbeat_timeout_ms() default 3000;

        long estimator_period_ms() default 1000;

        double estimator_weight() default 0.5;

        int max_flows_per_link() default 1024;

        /**
         * Cooperative congestion control on every out-link, from the congestion-control bundle:
         * {@code on} (reassignment, holds and notices), {@code local} (no notices) or {@code off}
         * (also {@code true}, {@code false}).
         */
        String congestion_control() default "off";

        /**
         * Out-links the kernel shapes, one line each: {@code link=NAME device=IF [estimator=router|kernel]};
         * needs the kernel-shaping bundle, and else the router shapes them.
         */
        String[] kernel_shaping() default {};

        long source_time_ahead_ms() default 2000;

        long source_time_max_age_ms() default 10000;
    }

    private final RouterSettings settings;
    /** The data plane, restarted when the broker's out-links change. */
    private final RouterPlane plane;
    private final ControlChannelClient control;

    /**
     * @param congestion congestion control, when its bundle is installed (a router started before it
     *                   is restarted with it, and without it when the bundle goes); {@code null}: none
     */
    @Activate
    public StatusRouterComponent(Config config,
                                 @Reference(name = "congestion", cardinality = ReferenceCardinality.OPTIONAL,
                                         policyOption = ReferencePolicyOption.GREEDY) CongestionControl congestion,
                                 @Reference(name = "kernel", cardinality = ReferenceCardinality.OPTIONAL,
                                         policyOption = ReferencePolicyOption.GREEDY) KernelShaping kernel) {
        try {
            this.settings = settingsOf(config, congestion, kernel);
            if (settings.congestionMissing) {
                LOG.warn("router {}: congestion.control is {}, but no congestion-control bundle is installed:"
                        + " forwarding under the reservations only", settings.nodeId, config.congestion_control());
            }
            List<InetSocketAddress> brokers = brokersOf(config.broker_address(), config.report_period_ms());
            ControlLiveness.Timing heartbeat = heartbeatOf(config);
            this.plane = new RouterPlane(settings);
            this.control = startControl(brokers, config.report_period_ms(), heartbeat);
        } catch (RuntimeException e) {
            LOG.error("status router not started: {}", e.getMessage());
            throw e;
        }
    }

    /**
     * Checks Config Admin properties of {@value #PID} as the component would take them, without
     * starting anything: a launcher refuses a bad configuration before it starts a framework.
     *
     * @throws IllegalArgumentException naming every bad key
     */
    public static void check(Map<String, ?> properties) {
        Config config = ConfigProperties.of(Config.class, properties);
        settingsOf(config, null, null);
        brokersOf(config.broker_address(), config.report_period_ms());
        heartbeatOf(config);
    }

    private static ControlLiveness.Timing heartbeatOf(Config config) {
        try {
            return ControlLiveness.Timing.ofMillis(config.heartbeat_ms(), config.heartbeat_timeout_ms());
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException("heartbeat.ms / heartbeat.timeout.ms: " + bad.getMessage(), bad);
        }
    }

    private static RouterSettings settingsOf(Config config, CongestionControl congestion, KernelShaping kernel) {
        return RouterSettings.of(config.node_id(), config.data_bind(), config.event_loops(),
                config.transport(), config.socket_buffer_bytes(), config.links(), config.flows(), config.routes(),
                Saturating.millisToNanos(config.estimator_period_ms()), config.estimator_weight(), config.max_flows_per_link())
                .busyPolling(config.busy_poll())
                .trusting(RouterSettings.sourceTimeTrust(config.source_time_ahead_ms(),
                        config.source_time_max_age_ms()))
                .withPriorityPort(config.priority_bind())
                .warmingUp(config.warm_up_frames())
                .withCongestionControl(config.congestion_control(), congestion)
                .withKernelShaping(config.kernel_shaping(), kernel)
                .withUdpOffload(config.udp_offload());
    }

    /** The broker replicas' control addresses; empty: no broker. */
    private static List<InetSocketAddress> brokersOf(String brokerAddress, long reportPeriodMs) {
        List<InetSocketAddress> brokers = new java.util.ArrayList<>();
        if (brokerAddress == null || brokerAddress.isBlank()) {
            return brokers;
        }
        try {
            if (reportPeriodMs < 0) {
                throw new IllegalArgumentException("report.period.ms must not be negative, got " + reportPeriodMs);
            }
            for (String one : brokerAddress.split(",")) {
                org.gridstat.core.model.Endpoint e = org.gridstat.core.model.Endpoint.parse(one.trim());
                brokers.add(InetSocketAddress.createUnresolved(e.host(), e.port()));
            }
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException("broker.address: " + bad.getMessage(), bad);
        }
        return brokers;
    }

    private ControlChannelClient startControl(List<InetSocketAddress> brokers, long reportPeriodMs,
                                              ControlLiveness.Timing heartbeat) {
        if (brokers.isEmpty()) {
            return null;
        }
        List<InetSocketAddress> resolved = brokers.stream()
                .map(b -> new InetSocketAddress(b.getHostString(), b.getPort())).toList();
        ControlChannelClient c = new ControlChannelClient(settings.nodeId, resolved, plane.current(), reportPeriodMs, heartbeat,
                org.gridstat.core.time.SystemNanoClock.INSTANCE)
                .takingOutLinksInto(plane);
        c.start();
        return c;
    }

    /**
     * Starts a router from Config Admin properties of {@value #PID} outside a framework, as
     * Declarative Services would, with {@code congestion} ({@code null}: none); {@link #stop} stops it.
     *
     * @throws IllegalArgumentException naming every bad key
     */
    public static StatusRouterComponent start(Map<String, ?> properties, CongestionControl congestion) {
        return start(properties, congestion, null);
    }

    /** As {@link #start(Map, CongestionControl)}, with {@code kernel} for the links its {@code kernel.shaping} lines name ({@code null}: none). */
    public static StatusRouterComponent start(Map<String, ?> properties, CongestionControl congestion, KernelShaping kernel) {
        return new StatusRouterComponent(ConfigProperties.of(Config.class, properties), congestion, kernel);
    }

    /** Stops a router {@link #start started} outside a framework, closing its sockets. */
    public void stop() {
        deactivate();
    }

    @Deactivate
    void deactivate() {
        if (control != null) {
            control.close();
        }
        RouterCounters last = plane.current().counters(); // before close removes the flows
        plane.close();
        LOG.info("router {} stopped; counters {}", settings.nodeId, last);
    }

    @Override
    public String nodeId() {
        return settings.nodeId;
    }

    @Override
    public InetSocketAddress dataAddress() {
        return plane.current().localAddress();
    }

    @Override
    public RouterCounters counters() {
        return plane.current().counters();
    }

    @Override
    public void submit(List<FlowCommand> commands) {
        plane.current().submit(commands);
    }

    @Override
    public List<String> outLinks() {
        return plane.current().outLinks();
    }

    @Override
    public List<FlowEntry> flows() {
        return plane.current().flows();
    }
}
