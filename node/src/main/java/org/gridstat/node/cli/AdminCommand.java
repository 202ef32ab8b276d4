package org.gridstat.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerException;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.VariableDocument;
import org.gridstat.core.model.DurationText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Operator commands on a running broker, through its management API; answers are printed as JSON. */
@Command(name = "admin", mixinStandardHelpOptions = true,
        header = "Manages a running broker through its management API (docs/management-api.md).",
        description = {"Prints the broker's JSON answer; requests go to the leading replica."},
        subcommands = {AdminCommand.Show.class, AdminCommand.Declare.class, AdminCommand.Subscribe.class,
                AdminCommand.Modify.class, AdminCommand.Unsubscribe.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the broker failed the request or is unreachable", "2:usage error",
                "3:the subscription or change was rejected (the reason is printed)"})
final class AdminCommand {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

    @Option(names = "--broker", paramLabel = "URL,...", defaultValue = "http://127.0.0.1:8470", split = ",",
            scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "The replicas' management API addresses (default: ${DEFAULT-VALUE}).")
    List<URI> brokers = new ArrayList<>();

    /** Sends a body built from the options; an option the body cannot take is a usage error (exit 2). */
    int sendBuilt(String method, String path, java.util.function.Supplier<Object> body) {
        Object built;
        try {
            built = body.get();
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        return send(method, path, built);
    }

    int send(String method, String path, Object body) {
        try {
            BrokerConnection c = BrokerConnection.connect(brokers, Duration.ofSeconds(10), Duration.ofSeconds(10));
            BrokerConnection.Answer a = c.request(method, path, body == null ? null : JSON.writeValueAsString(body));
            if (!a.body().isEmpty()) {
                if (path.endsWith(".yaml")) {
                    System.out.println(a.body());
                } else {
                    JsonNode n = JSON.readTree(a.body());
                    (a.status() < 300 ? System.out : System.err).println(JSON.writeValueAsString(n));
                }
            }
            return a.status() < 300 ? 0 : a.status() == 409 ? 3 : 1;
        } catch (BrokerException e) {
            System.err.println(e.getMessage());
            return 1;
        } catch (java.io.IOException e) {
            System.err.println("unreadable answer: " + e.getMessage());
            return 1;
        }
    }

    /** Gets a view and prints it as {@code table} lays it out. */
    int table(String path, java.util.function.Function<JsonNode, String> table) {
        try {
            BrokerConnection c = BrokerConnection.connect(brokers, Duration.ofSeconds(10), Duration.ofSeconds(10));
            BrokerConnection.Answer a = c.request("GET", path, null);
            if (a.status() >= 300) {
                System.err.println(a.body().isEmpty() ? "broker answered " + a.status() : a.body());
                return 1;
            }
            System.out.print(table.apply(JSON.readTree(a.body())));
            return 0;
        } catch (BrokerException e) {
            System.err.println(e.getMessage());
            return 1;
        } catch (java.io.IOException e) {
            System.err.println("unreadable answer: " + e.getMessage());
            return 1;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Shows a resource: status, topology, "
            + "routers, counters (each router's drops by reason and per-link figures), variables, subscriptions, flows, "
            + "alarms, devices (a table of every gateway's devices), openapi, or subscription ID.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Parameters(index = "0", paramLabel = "WHAT")
        String what;
        @Parameters(index = "1", arity = "0..1", paramLabel = "ID")
        Long id;

        @Override
        public Integer call() {
            String path = switch (what) {
                case "status", "topology", "routers", "counters", "variables", "subscriptions", "flows", "alarms" ->
                        "/" + what;
                case "openapi" -> "/openapi.yaml";
                case "subscription" -> id == null ? null : "/subscriptions/" + id;
                default -> null;
            };
            if (what.equals("devices")) {
                return admin.table("/devices", DeviceTable::format);
            }
            if (path == null) {
                System.err.println("show what? status, topology, routers, counters, variables, subscriptions, flows, alarms, "
                        + "devices, openapi, or subscription ID");
                return 2;
            }
            return admin.send("GET", path, null);
        }
    }

    @Command(name = "declare", mixinStandardHelpOptions = true, description = "Declares a published variable.")
    static final class Declare implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Option(names = "--name", required = true, description = "Variable name, e.g. utilityA/sub1/pmu1/freq.")
        String name;
        @Option(names = "--router", required = true, description = "Router it is published at.")
        String router;
        @Option(names = "--frame-bytes", required = true, description = "Frame size in bytes (48..1472).")
        int frameBytes;
        @Option(names = "--rate", required = true, description = "Publishing rate, Hz.")
        double rate;
        @Option(names = "--class", defaultValue = "BE", description = "HRT, LRT or BE (default: ${DEFAULT-VALUE}).")
        String serviceClass;
        @Option(names = "--group", description = "Correlation group.")
        String group;

        @Override
        public Integer call() {
            return admin.send("POST", "/variables",
                    new VariableDocument(name, null, router, frameBytes, rate, null, serviceClass, group));
        }
    }

    /** The QoS options of subscribe and modify. */
    static final class QosOptions {
        @Option(names = "--rate", required = true, description = "Delivery rate, Hz.")
        double rate;
        @Option(names = "--bound", required = true, description = "End-to-end latency bound, e.g. 50ms.")
        String bound;
        @Option(names = "--paths", defaultValue = "1", description = "Node-disjoint paths (default: ${DEFAULT-VALUE}).")
        int paths;
        @Option(names = "--class", defaultValue = "BE", description = "HRT, LRT or BE (default: ${DEFAULT-VALUE}).")
        String serviceClass;

        QosDocument document() {
            return new QosDocument(rate, null, DurationText.nanos(bound) / 1e6, paths, serviceClass, null);
        }
    }

    @Command(name = "subscribe", mixinStandardHelpOptions = true, description = "Asks for a subscription.")
    static final class Subscribe implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Option(names = "--variable", required = true)
        String variable;
        @Option(names = "--router", required = true, description = "The subscriber's router.")
        String router;
        @Option(names = "--link", required = true, description = "That router's out-link to the subscriber.")
        String link;
        @picocli.CommandLine.Mixin
        QosOptions qos;

        @Override
        public Integer call() {
            return admin.sendBuilt("POST", "/subscriptions", () -> new SubscriptionDocument(null, variable, router, link,
                    qos.document(), null));
        }
    }

    /** The QoS options of modify: each optional, and only those given are changed. */
    static final class QosChanges {
        @Option(names = "--rate", description = "New delivery rate, Hz.")
        Double rate;
        @Option(names = "--bound", description = "New end-to-end latency bound, e.g. 50ms.")
        String bound;
        @Option(names = "--paths", description = "New number of node-disjoint paths.")
        Integer paths;
        @Option(names = "--class", description = "New class: HRT, LRT or BE.")
        String serviceClass;

        QosDocument document() {
            if (rate == null && bound == null && paths == null && serviceClass == null) {
                throw new IllegalArgumentException("modify what? give at least one of --rate, --bound, --paths, --class");
            }
            return new QosDocument(rate, null, bound == null ? null : DurationText.nanos(bound) / 1e6, paths,
                    serviceClass, null);
        }
    }

    @Command(name = "modify", mixinStandardHelpOptions = true, description = {"Changes a subscription's QoS.",
            "Only the options given change; the others keep their value."})
    static final class Modify implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Parameters(index = "0", paramLabel = "ID")
        long id;
        @picocli.CommandLine.Mixin
        QosChanges qos;

        @Override
        public Integer call() {
            return admin.sendBuilt("PUT", "/subscriptions/" + id, () -> new SubscriptionDocument(null, null, null, null,
                    qos.document(), null));
        }
    }

    @Command(name = "unsubscribe", mixinStandardHelpOptions = true, description = "Tears a subscription down.")
    static final class Unsubscribe implements Callable<Integer> {
        @ParentCommand
        AdminCommand admin;
        @Parameters(index = "0", paramLabel = "ID")
        long id;

        @Override
        public Integer call() {
            return admin.send("DELETE", "/subscriptions/" + id, null);
        }
    }
}
