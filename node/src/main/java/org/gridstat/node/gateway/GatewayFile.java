package org.gridstat.node.gateway;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.model.DurationText;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.egress.EgressSettings;
import org.gridstat.gateway.ingest.DeviceSettings;
import org.gridstat.gateway.ingest.DeviceTransport;
import org.gridstat.gateway.report.ReportNames;

/**
 * A phasor gateway's configuration file (YAML), as {@code gridstat gateway --config FILE} reads it.
 * Unknown keys are errors, so a typo never passes silently; every error names the key. The keys
 * are documented in docs/deploy-gateway.md.
 */
public final class GatewayFile {
    /** The file's top level. */
    static final class Model {
        /** The broker's management API (http://host:port); absent: no declarations, no subscriptions, no reports. */
        public String broker = "";
        /** The name the gateway reports its devices to the broker under; absent: the host's name. */
        public String gatewayId = "";
        /** How often the devices are reported to the broker. */
        public String reportPeriod = "2s";
        public PublishSection publish;
        public List<DeviceSection> devices = new ArrayList<>();
        /** The gateway's subscriber socket, where routers deliver the streams' variables. */
        public String listen = "";
        public List<StreamSection> streams = new ArrayList<>();
    }

    static final class PublishSection {
        @JsonProperty(required = true)
        public String router;
        @JsonProperty(required = true)
        public String address;
    }

    static final class DeviceSection {
        @JsonProperty(required = true)
        public String name;
        public String transport = "tcp";
        public String address;
        public String localUdp;
        @JsonProperty(required = true)
        public Integer idCode;
        @JsonProperty(required = true)
        public String prefix;
        @JsonProperty("class")
        public String serviceClass = "HRT";
        public String latencyBound = "50ms";
        public String reconnectMin = "250ms";
        public String reconnectMax = "30s";
        public String configTimeout = "2s";
        public String dataTimeout = "5s";
        /** Data frames a second accepted; 0: twice the configuration's rate. */
        public int maxFrameRate = 0;
    }

    static final class StreamSection {
        @JsonProperty(required = true)
        public String name;
        @JsonProperty(required = true)
        public Integer idCode;
        @JsonProperty(required = true)
        public List<String> pmus;
        public String tcp;
        public String udp;
        public String waitWindow = "50ms";
        public int maxPending = EgressSettings.DEFAULT_MAX_PENDING;
        public int maxClients = 64;
        public SubscribeSection subscribe;
    }

    static final class SubscribeSection {
        @JsonProperty(required = true)
        public String router;
        @JsonProperty(required = true)
        public String link;
        @JsonProperty(required = true)
        public Double rateHz;
        public String latencyBound = "100ms";
        public int paths = 1;
        @JsonProperty("class")
        public String serviceClass = "HRT";
    }

    private GatewayFile() {
    }

    /** The broker's API address in a file, or null. */
    public static String broker(Path file) throws IOException {
        String b = read(file).broker;
        return b == null || b.isBlank() ? null : b;
    }

    /**
     * Reads a file into the gateway's settings.
     *
     * @throws IllegalArgumentException naming the key or value at fault
     */
    public static PhasorGateway.Settings settings(Path file) throws IOException {
        return settings(read(file));
    }

    static Model read(Path file) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        try {
            Model m = yaml.readValue(file.toFile(), Model.class);
            if (m == null) {
                throw new IllegalArgumentException(file + " is empty");
            }
            return m;
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(file + ": " + e.getOriginalMessage() + " at " + e.getPathReference(), e);
        }
    }

    static PhasorGateway.Settings settings(Model m) {
        List<PhasorGateway.Device> devices = new ArrayList<>();
        for (DeviceSection d : m.devices) {
            String where = "device " + d.name + ": ";
            DeviceTransport t = DeviceTransport.of(d.transport);
            DeviceSettings s = new DeviceSettings(d.name, t, address(where + "address", d.address),
                    address(where + "localUdp", d.localUdp), d.idCode, duration(where + "reconnectMin", d.reconnectMin),
                    duration(where + "reconnectMax", d.reconnectMax), duration(where + "configTimeout", d.configTimeout),
                    duration(where + "dataTimeout", d.dataTimeout), d.maxFrameRate,
                    DeviceSettings.DEFAULT_MAX_FUTURE_NANOS, DeviceSettings.DEFAULT_MAX_AGE_NANOS);
            devices.add(new PhasorGateway.Device(s, d.prefix, serviceClass(where, d.serviceClass),
                    duration(where + "latencyBound", d.latencyBound)));
        }
        List<PhasorGateway.Stream> streams = new ArrayList<>();
        for (StreamSection st : m.streams) {
            String where = "stream " + st.name + ": ";
            int rate = st.subscribe == null || st.subscribe.rateHz == null ? 0 : (int) Math.round(st.subscribe.rateHz);
            EgressSettings e = new EgressSettings(st.name, st.idCode, st.pmus, duration(where + "waitWindow", st.waitWindow),
                    st.maxPending, rate);
            InetSocketAddress tcp = address(where + "tcp", st.tcp);
            InetSocketAddress udp = address(where + "udp", st.udp);
            if (tcp == null && udp == null) {
                throw new IllegalArgumentException(where + "give tcp, udp or both: where downstream clients connect");
            }
            PmuServer.Settings server = new PmuServer.Settings(tcp, udp, null, null, st.maxClients,
                    PmuServer.Settings.DEFAULT_MAX_PENDING_BYTES, PmuServer.Settings.DEFAULT_CONFIG_EVERY,
                    PmuServer.Settings.DEFAULT_IDLE_TIMEOUT);
            PhasorGateway.Subscription sub = null;
            if (st.subscribe != null) {
                SubscribeSection u = st.subscribe;
                sub = new PhasorGateway.Subscription(u.router, u.link, u.rateHz,
                        duration(where + "subscribe.latencyBound", u.latencyBound), u.paths,
                        serviceClass(where, u.serviceClass));
            }
            streams.add(new PhasorGateway.Stream(e, server, sub));
        }
        InetSocketAddress router = null;
        String routerId = null;
        if (m.publish != null) {
            router = address("publish.address", m.publish.address);
            routerId = m.publish.router;
        }
        String id = m.gatewayId == null || m.gatewayId.isBlank() ? ReportNames.hostGatewayId() : m.gatewayId;
        if (!ReportNames.valid(id)) {
            throw new IllegalArgumentException("gatewayId must be " + ReportNames.rule() + ", got '" + id + "'");
        }
        for (PhasorGateway.Device d : devices) {
            if (m.broker != null && !m.broker.isBlank() && !ReportNames.valid(d.settings().name())) {
                throw new IllegalArgumentException("device " + d.settings().name() + ": name: a device reported to the"
                        + " broker is named by " + ReportNames.rule());
            }
        }
        Duration every = duration("reportPeriod", m.reportPeriod);
        if (every.toMillis() < GatewayReportDocument.MIN_PERIOD_MS || every.toMillis() > GatewayReportDocument.MAX_PERIOD_MS) {
            throw new IllegalArgumentException("reportPeriod must be 100ms..10m, got " + m.reportPeriod);
        }
        return new PhasorGateway.Settings(router, routerId, devices, address("listen", m.listen), streams, id, every);
    }

    private static InetSocketAddress address(String key, String text) {
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

    private static Duration duration(String key, String text) {
        try {
            return Duration.ofNanos(DurationText.nanos(text));
        } catch (RuntimeException ex) {
            throw new IllegalArgumentException(key + ": " + ex.getMessage(), ex);
        }
    }

    private static ServiceClass serviceClass(String where, String text) {
        try {
            ServiceClass c = ServiceClass.valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
            if (!c.isSubscribable()) {
                throw new IllegalArgumentException("CONTROL is reserved");
            }
            return c;
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(where + "class '" + text + "' is none of HRT, LRT, BE", ex);
        }
    }
}
