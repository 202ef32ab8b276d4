package org.gridstat.node;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.gridstat.statusrouter.api.RouterConfiguration;

/**
 * A node's configuration file (YAML), turned into Config Admin configurations keyed by PID. The
 * file format is described in the README; unknown keys are errors, so a typo never passes silently.
 */
public final class NodeConfig {
    public static final String STATUS_ROUTER_PID = "org.gridstat.statusrouter";
    public static final String GATEWAY_PID = org.gridstat.gateway.GatewayConfiguration.PID;

    private final String nodeId;
    private final Path storage;
    private final Map<String, Map<String, Object>> configurations;

    private NodeConfig(String nodeId, Path storage, Map<String, Map<String, Object>> configurations) {
        this.nodeId = nodeId;
        this.storage = storage;
        this.configurations = configurations;
    }

    /** The file's top level. */
    static final class FileModel {
        @JsonProperty(required = true)
        public NodeSection node;
        @JsonProperty("statusRouter")
        public StatusRouterSection statusRouter;
        /** A phasor gateway in the node (its bundle must be among the node's bundles). */
        public org.gridstat.node.gateway.GatewayFile.Section gateway;
    }

    static final class NodeSection {
        @JsonProperty(required = true)
        public String id;
        /** Framework storage; absent means a fresh temporary folder, removed at exit. */
        public String storage;
    }

    /** The status router; keys map onto the component's Config Admin properties. */
    public static final class StatusRouterSection {
        public String bind = "127.0.0.1:9470";
        /**
         * A second data port for HRT and LRT frames (host:port), so a best-effort flood cannot queue
         * ahead of them in the kernel; under epoll read before {@link #bind} in each duty cycle (under
         * NIO a second channel, read in turn); absent: none.
         */
        public String priorityBind = "";
        public int eventLoops = 1;
        /** Synthetic frames run through the data path before the ports open, so it starts compiled; 0: none. */
        public int warmUpFrames = org.gridstat.core.egress.DataPathWarmUp.DEFAULT_FRAMES;
        /** Event loops poll without sleeping: lowest hop latency, for routers with CPUs reserved for them. */
        public boolean busyPoll = false;
        /**
         * The kernel's UDP batching under epoll: out-links send runs of equal datagrams segmented
         * (UDP_SEGMENT), data ports read what the kernel coalesced (UDP_GRO); false: one send and one
         * receive per datagram, for A/B measurements.
         */
        public boolean udpOffload = true;
        public String transport = "auto";
        public int socketBufferBytes = 4 << 20;
        /** Out-links: maps of the router's link keys (name, address, capacity, hrt, lrt, be, delay, loss, ...). */
        public List<Map<String, Object>> links = new ArrayList<>();
        /** Flows: maps of the router's flow keys (id, variable, link, class, assured, rates, budget, ...). */
        public List<Map<String, Object>> flows = new ArrayList<>();
        public List<RouteEntry> routes = new ArrayList<>();
        /**
         * The broker replicas' control addresses (host:port, comma-separated; routers follow the
         * leader); absent: flows come from this file only.
         */
        public String broker = "";
        /** How often the broker's flows' statistics are reported to it, ms; 0: never. */
        public long reportPeriodMs = 1000;
        /** How often a heartbeat goes to the broker when nothing else did, ms. */
        public long heartbeatMs = 1000;
        /** How long a silent broker is kept before the next replica is tried, ms. */
        public long heartbeatTimeoutMs = 3000;
        public long estimatorPeriodMs = 1000;
        public double estimatorWeight = 0.5;

        /** Removed key: refused with what to do, rather than as an unknown field. */
        @JsonProperty("upstream")
        void upstreamRemoved(Object ignored) {
            throw new IllegalArgumentException("statusRouter.upstream is no longer used (the router reads every"
                    + " sender without a socket per publisher): remove it");
        }

        public int maxFlowsPerLink = 1024;
        /** How far ahead of the router's clock a source timestamp may be, ms; further is dropped. */
        public long sourceTimeAheadMs = 2000;
        /** How old a source timestamp may be, ms; older is dropped. */
        public long sourceTimeMaxAgeMs = 10000;
        /**
         * Cooperative congestion control on every out-link: {@code on} (or {@code true}: bandwidth
         * reassignment, holds and congestion notices to the previous hops and the publishers),
         * {@code local} (reassignment and holds only) or {@code off} (or {@code false}, the default).
         */
        public String congestionControl = "off";
        /**
         * Out-links the kernel shapes (an HTB qdisc on the device, needs the kernel-shaping bundle
         * and CAP_NET_ADMIN): maps of {@code link}, {@code device} and {@code estimator}
         * ({@code router} or {@code kernel}); the router shapes every other link, and any the kernel cannot.
         */
        public List<Map<String, Object>> kernelShaping = new ArrayList<>();
    }

    public static final class RouteEntry {
        @JsonProperty(required = true)
        public String variable;
        /** Informational: the variable's name, for the reader of the file. */
        public String name;
        @JsonProperty(required = true)
        public List<String> to;

        public RouteEntry() {
        }

        public RouteEntry(String variable, List<String> to) {
            this.variable = variable;
            this.to = to;
        }
    }

    /**
     * Reads and validates a node file.
     *
     * @throws IllegalArgumentException with the file name, line and column of the problem
     */
    public static NodeConfig load(Path file) {
        FileModel model = readYaml(file, FileModel.class);
        if (model == null || model.node == null) {
            throw new IllegalArgumentException(file + ": the 'node' section is required");
        }
        if (model.statusRouter == null && model.gateway == null) {
            throw new IllegalArgumentException(file + ": the node runs nothing: add a 'statusRouter' or a 'gateway' section");
        }
        try {
            return of(model.node.id, model.node.storage == null ? null : Path.of(model.node.storage), model.statusRouter,
                    model.gateway);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a YAML file strictly: unknown keys and nulls for numbers are errors.
     *
     * @throws IllegalArgumentException with the file name, line and column of the problem
     */
    public static <T> T readYaml(Path file, Class<T> type) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        try {
            return yaml.readValue(Files.readString(file), type);
        } catch (JsonMappingException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new IllegalArgumentException(file + where + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** Builds a router node's configuration in code, as the demo and tests do. */
    public static NodeConfig of(String nodeId, Path storage, StatusRouterSection router) {
        return of(nodeId, storage, router, null);
    }

    /**
     * Builds a node's configuration in code: a status router, a phasor gateway, or both.
     *
     * @param router  null: no status router
     * @param gateway null: no gateway
     */
    public static NodeConfig of(String nodeId, Path storage, StatusRouterSection router,
                                org.gridstat.node.gateway.GatewayFile.Section gateway) {
        if (nodeId == null || nodeId.isBlank()) {
            throw new IllegalArgumentException("node.id is required");
        }
        Map<String, Map<String, Object>> configs = new LinkedHashMap<>();
        if (router != null) {
            configs.put(STATUS_ROUTER_PID, routerProperties(nodeId, router));
        }
        if (gateway != null) {
            try {
                configs.put(GATEWAY_PID, org.gridstat.node.gateway.GatewayFile.properties(gateway));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("gateway: " + e.getMessage(), e);
            }
        }
        return new NodeConfig(nodeId, storage, configs);
    }

    /** The status router's Config Admin properties, checked as the router checks them. */
    private static Map<String, Object> routerProperties(String nodeId, StatusRouterSection router) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("node.id", nodeId);
        r.put("data.bind", router.bind);
        r.put("priority.bind", router.priorityBind == null ? "" : router.priorityBind);
        r.put("event.loops", router.eventLoops);
        r.put("warm.up.frames", router.warmUpFrames);
        r.put("busy.poll", router.busyPoll);
        r.put("udp.offload", router.udpOffload);
        r.put("transport", router.transport);
        r.put("socket.buffer.bytes", router.socketBufferBytes);
        List<String> lines = new ArrayList<>();
        for (RouteEntry e : router.routes) {
            if (e.variable == null || e.to == null || e.to.isEmpty()) {
                throw new IllegalArgumentException("statusRouter.routes: each route needs 'variable' and 'to'");
            }
            lines.add(e.variable + " -> " + e.to.stream().collect(Collectors.joining(", ")));
        }
        r.put("routes", lines.toArray(new String[0]));
        r.put("links", keyValueLines(router.links, "statusRouter.links"));
        r.put("flows", keyValueLines(router.flows, "statusRouter.flows"));
        r.put("broker.address", router.broker);
        r.put("report.period.ms", router.reportPeriodMs);
        r.put("heartbeat.ms", router.heartbeatMs);
        r.put("heartbeat.timeout.ms", router.heartbeatTimeoutMs);
        r.put("estimator.period.ms", router.estimatorPeriodMs);
        r.put("estimator.weight", router.estimatorWeight);
        r.put("max.flows.per.link", router.maxFlowsPerLink);
        r.put("source.time.ahead.ms", router.sourceTimeAheadMs);
        r.put("source.time.max.age.ms", router.sourceTimeMaxAgeMs);
        // YAML's on/true arrive as text; an empty value is the default, off
        r.put("congestion.control", router.congestionControl == null ? "off" : router.congestionControl);
        r.put("kernel.shaping", keyValueLines(router.kernelShaping, "statusRouter.kernelShaping"));
        RouterConfiguration.check(r); // the router's own check, before a framework is started for it
        return r;
    }

    /**
     * Turns YAML maps into the router's {@code key=value} lines; lists become comma-separated
     * values; a key given no value gives no lines. The router validates the keys and values and
     * names the line of any mistake.
     */
    public static String[] keyValueLines(List<Map<String, Object>> entries, String section) {
        List<String> lines = new ArrayList<>();
        if (entries == null) { // the key with no value (its entries commented out): none, as YAML's []
            return new String[0];
        }
        int n = 0;
        for (Map<String, Object> entry : entries) {
            n++;
            if (entry == null || entry.isEmpty()) {
                throw new IllegalArgumentException(section + " entry " + n + " is empty");
            }
            StringBuilder line = new StringBuilder();
            for (Map.Entry<String, Object> kv : entry.entrySet()) {
                Object v = kv.getValue();
                String text = v instanceof List ? ((List<?>) v).stream().map(String::valueOf).collect(Collectors.joining(","))
                        : String.valueOf(v);
                if (text.isEmpty() || text.chars().anyMatch(Character::isWhitespace)) {
                    throw new IllegalArgumentException(section + " entry " + n + ": value of '" + kv.getKey()
                            + "' must be one word, got '" + text + "'");
                }
                line.append(line.length() == 0 ? "" : " ").append(kv.getKey()).append('=').append(text);
            }
            lines.add(line.toString());
        }
        return lines.toArray(new String[0]);
    }

    public String nodeId() {
        return nodeId;
    }

    /** Framework storage folder, or {@code null} for a temporary one. */
    public Path storage() {
        return storage;
    }

    /** Config Admin configurations to install, by PID. */
    public Map<String, Map<String, Object>> configurations() {
        return configurations;
    }
}
