package org.gridstat.node.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "router", mixinStandardHelpOptions = true,
        header = "Runs a status router node until SIGTERM or Ctrl-C.",
        description = {"The node is an Equinox framework with the bundles of the distribution's bundles/ folder,"
                + " configured from a YAML file (see conf/r1.yaml, conf/router-example.yaml and the README)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:the router did not start", "2:the configuration is invalid"})
final class RouterCommand implements Callable<Integer> {
    static final String STATUS_ROUTER_SERVICE = "org.gridstat.statusrouter.api.StatusRouter";
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
        if (running.awaitService(STATUS_ROUTER_SERVICE, START_TIMEOUT_MILLIS) == null) {
            String failure = running.componentFailure(STATUS_ROUTER_SERVICE);
            running.close();
            if (failure != null) {
                System.err.println("status router of node " + node.nodeId() + " did not start: " + failure);
                return 1;
            }
            System.err.println("status router of node " + node.nodeId() + " did not start within "
                    + START_TIMEOUT_MILLIS / 1000 + " s (the log above says why if it failed); inactive bundles: "
                    + running.inactiveBundles());
            return 1;
        }
        System.err.println("router " + node.nodeId() + " running; SIGTERM or Ctrl-C stops it");
        running.awaitStop();
        return 0;
    }
}
