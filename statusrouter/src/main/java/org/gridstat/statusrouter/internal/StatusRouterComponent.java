package org.gridstat.statusrouter.internal;

import java.net.InetSocketAddress;
import java.util.List;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.time.Saturating;
import org.gridstat.statusrouter.api.RouterCounters;
import org.gridstat.statusrouter.api.StatusRouter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
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

        long source_time_ahead_ms() default 2000;

        long source_time_max_age_ms() default 10000;
    }

    private final RouterSettings settings;
    private final DataPlane dataPlane;
    private final ControlChannelClient control;

    @Activate
    public StatusRouterComponent(Config config) {
        try {
            this.settings = RouterSettings.of(config.node_id(), config.data_bind(), config.event_loops(),
                    config.transport(), config.socket_buffer_bytes(), config.links(), config.flows(), config.routes(),
                    Saturating.millisToNanos(config.estimator_period_ms()), config.estimator_weight(), config.max_flows_per_link())
                    .busyPolling(config.busy_poll())
                    .trusting(RouterSettings.sourceTimeTrust(config.source_time_ahead_ms(),
                            config.source_time_max_age_ms()))
                    .withPriorityPort(config.priority_bind())
                    .warmingUp(config.warm_up_frames());
            this.dataPlane = DataPlane.start(settings);
            this.control = startControl(config.broker_address(), config.report_period_ms(), config.heartbeat_ms(),
                    config.heartbeat_timeout_ms());
        } catch (RuntimeException e) {
            LOG.error("status router not started: {}", e.getMessage());
            throw e;
        }
    }

    private ControlChannelClient startControl(String brokerAddress, long reportPeriodMs, long heartbeatMs,
                                              long heartbeatTimeoutMs) {
        if (brokerAddress == null || brokerAddress.isBlank()) {
            return null;
        }
        java.util.List<InetSocketAddress> brokers = new java.util.ArrayList<>();
        ControlLiveness.Timing heartbeat;
        try {
            heartbeat = ControlLiveness.Timing.ofMillis(heartbeatMs, heartbeatTimeoutMs);
        } catch (IllegalArgumentException bad) {
            dataPlane.close();
            throw new IllegalArgumentException("heartbeat.ms / heartbeat.timeout.ms: " + bad.getMessage(), bad);
        }
        try {
            if (reportPeriodMs < 0) {
                throw new IllegalArgumentException("report.period.ms must not be negative, got " + reportPeriodMs);
            }
            for (String one : brokerAddress.split(",")) {
                org.gridstat.core.model.Endpoint e = org.gridstat.core.model.Endpoint.parse(one.trim());
                brokers.add(new InetSocketAddress(e.host(), e.port()));
            }
        } catch (IllegalArgumentException bad) {
            dataPlane.close();
            throw new IllegalArgumentException("broker.address: " + bad.getMessage(), bad);
        }
        ControlChannelClient c = new ControlChannelClient(settings.nodeId, brokers, dataPlane, reportPeriodMs, heartbeat,
                org.gridstat.core.time.SystemNanoClock.INSTANCE);
        c.start();
        return c;
    }

    @Deactivate
    void deactivate() {
        if (control != null) {
            control.close();
        }
        RouterCounters last = dataPlane.counters(); // before close removes the flows
        dataPlane.close();
        LOG.info("router {} stopped; counters {}", settings.nodeId, last);
    }

    @Override
    public String nodeId() {
        return settings.nodeId;
    }

    @Override
    public InetSocketAddress dataAddress() {
        return dataPlane.localAddress();
    }

    @Override
    public RouterCounters counters() {
        return dataPlane.counters();
    }

    @Override
    public void submit(List<FlowCommand> commands) {
        dataPlane.submit(commands);
    }

    @Override
    public List<String> outLinks() {
        return dataPlane.outLinks();
    }

    @Override
    public List<FlowEntry> flows() {
        return dataPlane.flows();
    }
}
