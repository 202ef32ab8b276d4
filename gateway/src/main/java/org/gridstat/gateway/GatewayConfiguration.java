package org.gridstat.gateway;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.model.ConfigLine;
import org.gridstat.core.model.DurationText;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.gateway.aggregate.AggregatorSettings;
import org.gridstat.gateway.aggregate.MeterServerSettings;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.egress.EgressSettings;
import org.gridstat.gateway.ingest.DeviceSettings;
import org.gridstat.gateway.ingest.DeviceTransport;
import org.gridstat.gateway.ingest.Mapping;
import org.gridstat.gateway.report.ReportNames;
import org.gridstat.gateway.shaping.ShapingSettings;

/**
 * A phasor gateway's configuration as Config Admin properties of {@value #PID}: what the gateway
 * bundle's component takes in a framework, and what {@code gridstat gateway --config FILE} builds
 * from its YAML file. Devices and streams are {@code key=value} lines. Every key is in
 * docs/deploy-gateway.md; every error names the key or quotes the line.
 */
public final class GatewayConfiguration {
    public static final String PID = "org.gridstat.gateway";

    private static final Set<String> DEVICE_KEYS = Set.of("name", "transport", "address", "localUdp", "idCode",
            "prefix", "class", "latencyBound", "reconnectMin", "reconnectMax", "configTimeout", "dataTimeout",
            "maxFrameRate", "shaping", "burst", "queuePackets", "mtu", "mapping");
    private static final Set<String> METER_KEYS = Set.of("listen", "prefix", "class", "latencyBound", "interval",
            "grace", "maxConnections", "rate", "burst", "helloTimeout", "idleTimeout");
    private static final Set<String> STREAM_KEYS = Set.of("name", "idCode", "pmus", "tcp", "udp", "waitWindow",
            "maxPending", "maxClients", "router", "link", "rateHz", "latencyBound", "paths", "class");

    private GatewayConfiguration() {
    }

    /**
     * The broker's management API ({@code broker.api}), or null for none.
     *
     * @throws IllegalArgumentException if it is not an {@code http://host:port} address
     */
    public static String brokerApi(Map<String, ?> p) {
        String b = text(p, "broker.api", "");
        if (b.isBlank()) {
            return null;
        }
        try {
            java.net.URI u = new java.net.URI(b);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new java.net.URISyntaxException(b, "not http://host:port");
            }
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("broker: '" + b + "' is not the broker's API address, such as"
                    + " http://127.0.0.1:8470");
        }
        return b;
    }

    /**
     * Reads the properties.
     *
     * @throws IllegalArgumentException naming the key, or quoting the line, at fault
     */
    public static PhasorGateway.Settings settings(Map<String, ?> p) {
        List<PhasorGateway.Device> devices = new ArrayList<>();
        for (String line : lines(p, "devices")) {
            devices.add(device(new ConfigLine(line, DEVICE_KEYS)));
        }
        List<PhasorGateway.Stream> streams = new ArrayList<>();
        for (String line : lines(p, "streams")) {
            streams.add(stream(new ConfigLine(line, STREAM_KEYS)));
        }
        List<PhasorGateway.Meters> meters = new ArrayList<>();
        for (String line : lines(p, "meters")) {
            meters.add(meters(new ConfigLine(line, METER_KEYS)));
        }
        InetSocketAddress router = address("publish.address", text(p, "publish.address", ""));
        String routerId = text(p, "publish.router", "");
        if ((!devices.isEmpty() || !meters.isEmpty()) && (router == null || routerId.isBlank())) {
            throw new IllegalArgumentException("publish.router and publish.address: a gateway with devices or meters"
                    + " publishes at a router, and must name it and its data address");
        }
        InetSocketAddress listen = address("listen", text(p, "listen", ""));
        if (!streams.isEmpty() && listen == null) {
            throw new IllegalArgumentException("listen: a gateway with streams receives their PMUs' variables on a"
                    + " socket of its own (host:port), the address of the delivery link routers send them on");
        }
        if (devices.isEmpty() && streams.isEmpty() && meters.isEmpty()) {
            throw new IllegalArgumentException("devices, streams, meters: the gateway has nothing to do");
        }
        brokerApi(p);
        String given = text(p, "gateway.id", "");
        String id = given.isBlank() ? ReportNames.hostGatewayId() : given;
        if (!ReportNames.valid(id)) {
            throw new IllegalArgumentException("gatewayId must be " + ReportNames.rule() + ", got '" + id + "'");
        }
        if (brokerApi(p) != null) {
            for (PhasorGateway.Device d : devices) {
                if (!ReportNames.valid(d.settings().name())) {
                    throw new IllegalArgumentException("device " + d.settings().name() + ": name: a device reported to"
                            + " the broker is named by " + ReportNames.rule());
                }
            }
        }
        String periodText = text(p, "report.period", "2s");
        Duration every = duration("reportPeriod", periodText);
        if (every.toMillis() < GatewayReportDocument.MIN_PERIOD_MS || every.toMillis() > GatewayReportDocument.MAX_PERIOD_MS) {
            throw new IllegalArgumentException("reportPeriod must be 100ms..10m, got " + periodText);
        }
        return new PhasorGateway.Settings(router, routerId.isBlank() ? null : routerId, devices, listen, streams, id, every,
                meters);
    }

    private static PhasorGateway.Device device(ConfigLine l) {
        try {
            if (!l.has("idCode")) {
                throw l.error("missing 'idCode'");
            }
            DeviceTransport t = DeviceTransport.of(l.text("transport", "tcp"));
            DeviceSettings s = new DeviceSettings(l.text("name"), t, address("address", l.text("address", "")),
                    address("localUdp", l.text("localUdp", "")), (int) l.number("idCode", -1),
                    Duration.ofNanos(l.nanos("reconnectMin", DeviceSettings.DEFAULT_RECONNECT_MIN.toNanos())),
                    Duration.ofNanos(l.nanos("reconnectMax", DeviceSettings.DEFAULT_RECONNECT_MAX.toNanos())),
                    Duration.ofNanos(l.nanos("configTimeout", DeviceSettings.DEFAULT_CONFIG_TIMEOUT.toNanos())),
                    Duration.ofNanos(l.nanos("dataTimeout", DeviceSettings.DEFAULT_DATA_TIMEOUT.toNanos())),
                    (int) l.number("maxFrameRate", 0), DeviceSettings.DEFAULT_MAX_FUTURE_NANOS,
                    DeviceSettings.DEFAULT_MAX_AGE_NANOS);
            ShapingSettings d = ShapingSettings.DEFAULT;
            String shaping = l.text("shaping", "on");
            if (!shaping.equals("on") && !shaping.equals("off")) {
                throw l.error("shaping is on or off, not '" + shaping + "'");
            }
            ShapingSettings shape = new ShapingSettings(shaping.equals("on"), (int) l.number("burst", d.burstFrames()),
                    (int) l.number("queuePackets", d.queuePackets()), (int) l.number("mtu", d.mtu()));
            return new PhasorGateway.Device(s, l.text("prefix"), serviceClass(l.text("class", "HRT")),
                    Duration.ofNanos(l.nanos("latencyBound", 50_000_000L)), shape, Mapping.of(l.text("mapping", "pmu")));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("'") ? (RuntimeException) e : l.error(e.getMessage());
        }
    }

    private static PhasorGateway.Stream stream(ConfigLine l) {
        try {
            if (!l.has("idCode")) {
                throw l.error("missing 'idCode'");
            }
            List<String> pmus = Arrays.stream(l.text("pmus").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .toList();
            double rate = l.decimal("rateHz", 0);
            EgressSettings e = new EgressSettings(l.text("name"), (int) l.number("idCode", -1), pmus,
                    Duration.ofNanos(l.nanos("waitWindow", EgressSettings.DEFAULT_WAIT_WINDOW.toNanos())),
                    (int) l.number("maxPending", EgressSettings.DEFAULT_MAX_PENDING),
                    rate > 0 ? EgressSettings.dataRateOf(rate) : 0);
            InetSocketAddress tcp = address("tcp", l.text("tcp", ""));
            InetSocketAddress udp = address("udp", l.text("udp", ""));
            if (tcp == null && udp == null) {
                throw l.error("give tcp, udp or both: where downstream C37.118 clients reach the stream");
            }
            PmuServer.Settings server = new PmuServer.Settings(tcp, udp, null, null,
                    (int) l.number("maxClients", PmuServer.Settings.DEFAULT_MAX_CLIENTS),
                    PmuServer.Settings.DEFAULT_MAX_PENDING_BYTES, PmuServer.Settings.DEFAULT_CONFIG_EVERY,
                    PmuServer.Settings.DEFAULT_IDLE_TIMEOUT);
            PhasorGateway.Subscription sub = null;
            if (l.has("router") || l.has("link")) {
                if (rate <= 0) {
                    throw l.error("a stream subscribed through the broker needs rateHz > 0");
                }
                sub = new PhasorGateway.Subscription(l.text("router"), l.text("link"), rate,
                        Duration.ofNanos(l.nanos("latencyBound", 100_000_000L)), (int) l.number("paths", 1),
                        serviceClass(l.text("class", "HRT")));
            }
            return new PhasorGateway.Stream(e, server, sub);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("'") ? (RuntimeException) e : l.error(e.getMessage());
        }
    }

    private static PhasorGateway.Meters meters(ConfigLine l) {
        try {
            InetSocketAddress listen = address("listen", l.text("listen"));
            MeterServerSettings d = MeterServerSettings.at(listen);
            AggregatorSettings a = d.aggregator()
                    .withInterval(Duration.ofNanos(l.nanos("interval", d.aggregator().interval().toNanos())))
                    .withGrace(Duration.ofNanos(l.nanos("grace", d.aggregator().grace().toNanos())));
            MeterServerSettings server = d.withMaxConnections((int) l.number("maxConnections", d.maxConnections()))
                    .withRate((int) l.number("rate", d.readingsPerSecond()), (int) l.number("burst", d.burst()))
                    .withTimeouts(Duration.ofNanos(l.nanos("helloTimeout", d.helloTimeout().toNanos())),
                            Duration.ofNanos(l.nanos("idleTimeout", d.idleTimeout().toNanos())))
                    .withAggregator(a);
            String prefix = l.text("prefix");
            org.gridstat.core.model.VariableName.of(prefix + "/region-65535");
            return new PhasorGateway.Meters(server, prefix, serviceClass(l.text("class", "BE")),
                    Duration.ofNanos(l.nanos("latencyBound", 1_000_000_000L)));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("'") ? (RuntimeException) e : l.error(e.getMessage());
        }
    }

    private static ServiceClass serviceClass(String text) {
        try {
            ServiceClass c = ServiceClass.valueOf(text.trim().toUpperCase(Locale.ROOT));
            if (c.isSubscribable()) {
                return c;
            }
        } catch (IllegalArgumentException e) {
            // named below
        }
        throw new IllegalArgumentException("class '" + text + "' is none of HRT, LRT, BE");
    }

    /** {@code host:port} as a socket address, or null for empty text; an error names {@code key}. */
    public static InetSocketAddress address(String key, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            Endpoint e = Endpoint.parse(text);
            return new InetSocketAddress(e.host(), e.port());
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(key + ": " + ex.getMessage(), ex);
        }
    }

    static Duration duration(String key, String text) {
        try {
            return Duration.ofNanos(DurationText.nanos(text));
        } catch (RuntimeException ex) {
            throw new IllegalArgumentException(key + ": " + ex.getMessage(), ex);
        }
    }

    private static String text(Map<String, ?> p, String key, String otherwise) {
        Object v = p.get(key);
        return v == null ? otherwise : String.valueOf(v).trim();
    }

    /** A multi-valued property: Config Admin gives an array or a collection, a file may give one string. */
    private static List<String> lines(Map<String, ?> p, String key) {
        Object v = p.get(key);
        if (v == null) {
            return List.of();
        }
        if (v instanceof String[] a) {
            return List.of(a);
        }
        if (v instanceof Collection<?> c) {
            return c.stream().map(String::valueOf).toList();
        }
        if (v instanceof String s) {
            return s.isBlank() ? List.of() : List.of(s);
        }
        throw new IllegalArgumentException(key + ": lines of key=value words, not " + v.getClass().getSimpleName());
    }
}
