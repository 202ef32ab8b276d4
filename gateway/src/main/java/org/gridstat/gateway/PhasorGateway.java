package org.gridstat.gateway;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.gateway.aggregate.MeterServer;
import org.gridstat.gateway.aggregate.MeterServerSettings;
import org.gridstat.gateway.aggregate.PublishingSink;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.egress.EgressSettings;
import org.gridstat.gateway.egress.EgressStream;
import org.gridstat.gateway.ingest.BrokerDeclarations;
import org.gridstat.gateway.ingest.Declarations;
import org.gridstat.gateway.ingest.DeviceConnection;
import org.gridstat.gateway.ingest.DeviceCounters;
import org.gridstat.gateway.ingest.DevicePublisher;
import org.gridstat.gateway.ingest.DeviceSettings;
import org.gridstat.gateway.ingest.DeviceStatus;
import org.gridstat.gateway.ingest.Mapping;
import org.gridstat.gateway.report.DeviceReporter;
import org.gridstat.gateway.report.ReportNames;
import org.gridstat.gateway.shaping.ShapingSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A phasor gateway: the devices it reads (PMUs and PDCs, whose PMUs it publishes as status
 * variables at its router) and the C37.118 streams it serves downstream (rebuilt from the
 * variables it subscribes to). Either side may be empty. With a broker, the ingest declares its
 * variables and each stream subscribes to its PMUs' samples and descriptions.
 */
public final class PhasorGateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PhasorGateway.class);
    /** How often each PMU's description goes out, one part at a time. */
    public static final Duration DESCRIPTION_EVERY = Duration.ofSeconds(1);

    /** A device read, the variables its PMUs become, and how their samples are shaped at the source. */
    public record Device(DeviceSettings settings, String prefix, ServiceClass serviceClass, Duration latencyBound,
                         ShapingSettings shaping, Mapping mapping) {
        public Device {
            Objects.requireNonNull(settings, "device settings");
            Objects.requireNonNull(prefix, "variable prefix");
            Objects.requireNonNull(serviceClass, "service class");
            Objects.requireNonNull(shaping, "shaping");
            Objects.requireNonNull(mapping, "mapping");
        }

        /** Each PMU as one variable, shaped with the defaults. */
        public Device(DeviceSettings settings, String prefix, ServiceClass serviceClass, Duration latencyBound) {
            this(settings, prefix, serviceClass, latencyBound, ShapingSettings.DEFAULT, Mapping.PMU);
        }
    }

    /** Where a stream's variables come from: the broker subscription the gateway makes for them, if any. */
    public record Subscription(String router, String link, double rateHz, Duration latencyBound, int paths,
                               ServiceClass serviceClass) {
    }

    /** A stream served downstream. */
    public record Stream(EgressSettings settings, PmuServer.Settings server, Subscription subscription) {
    }

    /**
     * @param router       the data address of the router the devices' variables are published at
     * @param routerId     that router's id, for the declarations
     * @param listen       the gateway's subscriber socket: where routers deliver the streams' variables
     * @param gatewayId    the name the gateway reports its devices to the broker under (the broker's
     *                     name rule, {@link ReportNames}); by default the host's name
     * @param reportPeriod how often the devices are reported to the broker
     */
    /**
     * Meters terminated at the gateway and carried upstream aggregated, one variable per region
     * ({@code PREFIX/region-N}) and interval.
     */
    public record Meters(MeterServerSettings server, String prefix, ServiceClass serviceClass, Duration latencyBound) {
        public Meters {
            Objects.requireNonNull(server, "meter server settings");
            Objects.requireNonNull(prefix, "variable prefix");
            Objects.requireNonNull(serviceClass, "service class");
        }
    }

    public record Settings(InetSocketAddress router, String routerId, List<Device> devices, InetSocketAddress listen,
                           List<Stream> streams, String gatewayId, Duration reportPeriod, List<Meters> meters) {
        public Settings {
            devices = List.copyOf(devices);
            streams = List.copyOf(streams);
            meters = List.copyOf(meters);
            if ((!devices.isEmpty() || !meters.isEmpty()) && (router == null || routerId == null)) {
                throw new IllegalArgumentException("a gateway with devices or meters needs the router it publishes at");
            }
            if (!streams.isEmpty() && listen == null) {
                throw new IllegalArgumentException("a gateway with streams needs a socket to receive them on");
            }
            if (!ReportNames.valid(gatewayId)) {
                throw new IllegalArgumentException("gatewayId must be " + ReportNames.rule() + ", got '" + gatewayId + "'");
            }
            Objects.requireNonNull(reportPeriod, "report period");
        }

        /** A gateway without meters. */
        public Settings(InetSocketAddress router, String routerId, List<Device> devices, InetSocketAddress listen,
                        List<Stream> streams, String gatewayId, Duration reportPeriod) {
            this(router, routerId, devices, listen, streams, gatewayId, reportPeriod, List.of());
        }

        /** A gateway reporting as its host every {@link DeviceReporter#DEFAULT_PERIOD}. */
        public Settings(InetSocketAddress router, String routerId, List<Device> devices, InetSocketAddress listen,
                        List<Stream> streams) {
            this(router, routerId, devices, listen, streams, ReportNames.hostGatewayId(), DeviceReporter.DEFAULT_PERIOD);
        }

        /** The same gateway reporting under another id and period. */
        public Settings withReporting(String gatewayId, Duration reportPeriod) {
            return new Settings(router, routerId, devices, listen, streams, gatewayId, reportPeriod, meters);
        }

        /** The same gateway with these meters. */
        public Settings withMeters(List<Meters> m) {
            return new Settings(router, routerId, devices, listen, streams, gatewayId, reportPeriod, m);
        }
    }

    private final EventLoopGroup loops;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<DeviceConnection> connections = new ArrayList<>();
    private final List<EgressStream> streams = new ArrayList<>();
    private final List<MeterServer> meterServers = new ArrayList<>();
    private Subscriber subscriber;
    private StreamSubscriptions subscriptions;
    private DeviceReporter reporter;

    private PhasorGateway() {
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    /**
     * Starts every device session and stream, and with a broker the reports of the devices to it.
     *
     * @param broker null: no declarations, no subscriptions (routers configured otherwise) and no reports
     * @throws SubscriptionRejectedException if the broker refuses a stream's subscription, saying why
     * @throws IllegalArgumentException      if the devices are to be reported and one's name is not a
     *                                       name the broker takes ({@link ReportNames})
     */
    public static PhasorGateway start(Settings s, BrokerConnection broker) throws SubscriptionRejectedException {
        PhasorGateway g = new PhasorGateway();
        try {
            g.startIngest(s, broker);
            g.startEgress(s, broker);
            return g;
        } catch (RuntimeException | SubscriptionRejectedException e) {
            g.close();
            throw e;
        }
    }

    private void startIngest(Settings s, BrokerConnection broker) {
        if (s.devices().isEmpty() && s.meters().isEmpty()) {
            return;
        }
        Publisher publisher = Publisher.connect(s.router());
        open.add(publisher);
        Declarations declarations = Declarations.NONE;
        if (broker != null) {
            BrokerDeclarations d = new BrokerDeclarations(broker, s.routerId());
            open.add(d);
            declarations = d;
        }
        for (Meters m : s.meters()) {
            PublishingSink sink = new PublishingSink(publisher, PublishingSink.regionNames(m.prefix(), Map.of()),
                    m.serviceClass(), m.latencyBound(), m.server().aggregator().interval(), declarations::declare);
            MeterServer server = MeterServer.start(m.server(), sink, SystemClock.INSTANCE, SystemNanoClock.INSTANCE);
            meterServers.add(server);
            open.add(server);
        }
        for (Device d : s.devices()) {
            EventLoop loop = loops.next();
            DeviceCounters counters = new DeviceCounters(d.settings().name());
            DevicePublisher sink = new DevicePublisher(d.settings().name(), d.prefix(), d.serviceClass(),
                    d.latencyBound(), DESCRIPTION_EVERY, publisher, declarations, d.shaping(), SystemNanoClock.INSTANCE,
                    (task, delay) -> loop.schedule(task, delay, TimeUnit.NANOSECONDS), counters, d.mapping());
            DeviceConnection c = new DeviceConnection(d.settings(), loop, SystemClock.INSTANCE,
                    SystemNanoClock.INSTANCE, sink, counters);
            connections.add(c);
            open.add(c);
            c.start();
        }
        if (broker != null) {
            reporter = new DeviceReporter(s.gatewayId(), this::devices, DeviceReporter.to(broker), s.reportPeriod(),
                    SystemClock.INSTANCE, SystemNanoClock.INSTANCE);
            open.add(reporter); // closed before the sessions it reads, so no report shows them torn down
            reporter.start();
        }
    }

    private void startEgress(Settings s, BrokerConnection broker) throws SubscriptionRejectedException {
        if (s.streams().isEmpty()) {
            return;
        }
        List<EgressStream> built = new ArrayList<>();
        for (Stream st : s.streams()) {
            EgressStream e = new EgressStream(st.settings(), st.server(), SystemNanoClock.INSTANCE);
            built.add(e);
            streams.add(e);
            open.add(e);
        }
        subscriber = Subscriber.open(s.listen(), event -> {
            for (EgressStream e : built) {
                e.onEvent(event);
            }
        });
        open.add(subscriber);
        if (broker == null) {
            return;
        }
        StreamSubscriptions subscriptions = new StreamSubscriptions(broker);
        open.add(subscriptions);
        subscriptions.start(StreamSubscriptions.of(s.streams()));
        this.subscriptions = subscriptions;
    }

    /** Stream subscriptions still waiting for their variables to be declared (0 without a broker). */
    public int subscriptionsWaiting() {
        return subscriptions == null ? 0 : subscriptions.waiting();
    }

    /** The subscriber socket's address (where routers must deliver the streams), or null without streams. */
    public InetSocketAddress listenAddress() {
        return subscriber == null ? null : subscriber.localAddress();
    }

    public List<DeviceStatus> devices() {
        return connections.stream().map(c -> c.counters().snapshot()).toList();
    }

    /** The reports of the devices to the broker, or null without a broker or devices. */
    public DeviceReporter reporter() {
        return reporter;
    }

    /** The meter servers of the split-and-aggregate ingest. */
    public List<MeterServer> meters() {
        return List.copyOf(meterServers);
    }

    public List<EgressStream> streams() {
        return List.copyOf(streams);
    }

    public List<DeviceConnection> connections() {
        return List.copyOf(connections);
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", open.get(i), e.toString());
            }
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3_000);
    }
}
