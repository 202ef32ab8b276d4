package org.gridstat.node.gateway;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.gateway.GatewayConfiguration;
import org.gridstat.node.NodeConfig;

/**
 * A phasor gateway's configuration in YAML: a file of its own for {@code gridstat gateway --config
 * FILE}, or the {@code gateway} section of a node file. Either way it becomes the Config Admin
 * properties of {@value GatewayConfiguration#PID} ({@link #properties}), which the gateway reads
 * the same way in and out of a framework. Unknown keys are errors; the keys are in
 * docs/deploy-gateway.md.
 */
public final class GatewayFile {
    /** The gateway's section. */
    public static final class Section {
        /** The broker's management API (http://host:port); empty: no declarations, no subscriptions, no reports. */
        public String broker = "";
        /** The name the gateway reports its devices to the broker under; empty: the host's name. */
        public String gatewayId = "";
        /** How often the devices are reported to the broker. */
        public String reportPeriod = "2s";
        public Publish publish;
        /** The gateway's subscriber socket, where routers deliver the streams' variables. */
        public String listen = "";
        /** Devices read: maps of the device keys (name, transport, address, idCode, prefix, ...). */
        public List<Map<String, Object>> devices = new ArrayList<>();
        /** Streams served: maps of the stream keys (name, idCode, pmus, tcp, udp, router, link, rateHz, ...). */
        public List<Map<String, Object>> streams = new ArrayList<>();
        /** Meter ports of the split-and-aggregate ingest: maps of the meter keys (listen, prefix, interval, ...). */
        public List<Map<String, Object>> meters = new ArrayList<>();
    }

    /** The router the devices' PMUs are published at. */
    public static final class Publish {
        @JsonProperty(required = true)
        public String router;
        @JsonProperty(required = true)
        public String address;
    }

    private GatewayFile() {
    }

    /**
     * Reads a gateway file into the gateway's Config Admin properties, checked as the gateway checks them.
     *
     * @throws IllegalArgumentException naming the file, and the line or key at fault
     */
    public static Map<String, Object> load(Path file) {
        Section s = NodeConfig.readYaml(file, Section.class);
        if (s == null) {
            throw new IllegalArgumentException(file + " is empty");
        }
        try {
            return properties(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** A gateway file as the gateway's settings. */
    public static org.gridstat.gateway.PhasorGateway.Settings settings(Path file) {
        return GatewayConfiguration.settings(load(file));
    }

    /** A section as the gateway's Config Admin properties; checked. */
    public static Map<String, Object> properties(Section s) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("broker.api", s.broker == null ? "" : s.broker);
        p.put("gateway.id", s.gatewayId == null ? "" : s.gatewayId);
        p.put("report.period", s.reportPeriod == null ? "2s" : s.reportPeriod);
        if (s.publish != null) {
            p.put("publish.router", s.publish.router);
            p.put("publish.address", s.publish.address);
        }
        p.put("listen", s.listen == null ? "" : s.listen);
        p.put("devices", NodeConfig.keyValueLines(s.devices, "gateway.devices"));
        p.put("streams", NodeConfig.keyValueLines(s.streams, "gateway.streams"));
        p.put("meters", NodeConfig.keyValueLines(s.meters, "gateway.meters"));
        GatewayConfiguration.settings(p); // the gateway's own check, before anything starts
        return p;
    }
}
