package org.gridstat.node.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "router", mixinStandardHelpOptions = true,
        header = "Runs a node (a status router, a phasor gateway or both) until SIGTERM or Ctrl-C.",
        description = {"The node is an Equinox framework with the bundles of the distribution's bundles/ folder,"
                + " configured from a YAML file (see conf/r1.yaml, conf/router-example.yaml, the README and"
                + " docs/deploy-gateway.md for a 'gateway' section)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:the router or the gateway did not start", "2:the configuration is invalid",
                "143:stopped by SIGTERM (130: by Ctrl-C), as the JVM reports a signal"})
final class RouterCommand implements Callable<Integer> {
    static final String STATUS_ROUTER_SERVICE = "org.gridstat.statusrouter.api.StatusRouter";
    static final String GATEWAY_SERVICE = "org.gridstat.gateway.component.GatewayComponent";
    /**
     * How long the router may take to start: its warm-up alone takes seconds on a loaded machine,
     * and a configuration error shows at once (in the log) rather than at the end of the wait.
     */
    static final long START_TIMEOUT_MILLIS = 120_000;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "Node configuration (YAML).")
    Path config;

    @Option(names = "--bundles", paramLabel = "DIR", description = "Bundle folder (default: the distribution's bundles/).")
    Path bundles;

    @Override
    public Integer call() throws Exception {
        NodeConfig node;
        try {
            node = NodeConfig.load(config);
        } catch (IllegalArgumentException e) {
            System.err.println("configuration error: " + e.getMessage());
            return 2;
        }
        EquinoxNode running;
        try {
            running = EquinoxNode.start(bundles != null ? bundles : Distribution.bundles(), node);
        } catch (RuntimeException e) {
            System.err.println("node " + node.nodeId() + " did not start: " + e.getMessage());
            return 1;
        }
        ShutdownSignal.onShutdown(running::close);
        Map<String, String> services = new LinkedHashMap<>(); // what the file configures, and its service
        if (node.configurations().containsKey(NodeConfig.STATUS_ROUTER_PID)) {
            services.put("status router", STATUS_ROUTER_SERVICE);
        }
        if (node.configurations().containsKey(NodeConfig.GATEWAY_PID)) {
            services.put("phasor gateway", GATEWAY_SERVICE);
        }
        for (Map.Entry<String, String> s : services.entrySet()) {
            if (running.awaitService(s.getValue(), START_TIMEOUT_MILLIS) == null) {
                String failure = running.componentFailure(s.getValue());
                String inactive = running.inactiveBundles().toString(); // read before the framework stops
                running.close();
                if (failure != null) {
                    System.err.println(s.getKey() + " of node " + node.nodeId() + " did not start: " + failure);
                    return 1;
                }
                System.err.println(s.getKey() + " of node " + node.nodeId() + " did not start within "
                        + START_TIMEOUT_MILLIS / 1000 + " s (the log above says why if it failed); inactive bundles: "
                        + inactive);
                return 1;
            }
        }
        boolean routerOnly = services.size() == 1 && services.containsKey("status router");
        System.err.println((routerOnly ? "router " + node.nodeId() + " running"
                : "node " + node.nodeId() + " running (" + String.join(" and ", services.keySet()) + ")")
                + "; SIGTERM or Ctrl-C stops it");
        running.awaitStop();
        return 0;
    }
}
