package org.gridstat.node.cli;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridstat.broker.hierarchy.ParentService;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "parent", mixinStandardHelpOptions = true,
        header = "Runs a parent broker over leaf brokers, one per cloud, until SIGTERM or Ctrl-C.",
        description = {"It reserves the border links between clouds and routes subscriptions across them, delegating"
                + " each cloud's segment to its leaf. Its subscriptions live in ZooKeeper (embedded by default)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:the parent did not start", "2:the arguments or files are invalid"})
final class ParentCommand implements Callable<Integer> {
    @Option(names = {"-b", "--borders"}, required = true, paramLabel = "FILE",
            description = "Border topology (docs/topology.md): the border routers, each with its cloud, and the links between clouds.")
    Path borders;

    @Option(names = "--leaf", required = true, paramLabel = "CLOUD=URL[,URL...]",
            description = "A cloud's leaf broker replicas' API addresses; once per cloud.")
    Map<String, String> leaves = new LinkedHashMap<>();

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT,...", defaultValue = "",
            description = "ZooKeeper ensemble to use instead of the embedded server.")
    String zookeeper;

    @Option(names = "--data", paramLabel = "DIR", defaultValue = "gridstat-data/parent-zookeeper",
            description = "Embedded ZooKeeper's data folder (default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--zookeeper-port", paramLabel = "PORT", defaultValue = "2182",
            description = "Embedded ZooKeeper's port on loopback (default: ${DEFAULT-VALUE}).")
    int zookeeperPort;

    @Option(names = "--root", paramLabel = "PATH", defaultValue = "/gridstat-parent",
            description = "ZooKeeper path of the parent's state (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(names = "--api", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8480",
            description = "The parent's API (HTTP/JSON) (default: ${DEFAULT-VALUE}).")
    String api;

    @Override
    public Integer call() {
        ParentService.Settings settings;
        try {
            Map<String, List<URI>> urls = new LinkedHashMap<>();
            leaves.forEach((cloud, list) -> {
                List<URI> l = new ArrayList<>();
                for (String u : list.split(",")) {
                    l.add(URI.create(u.trim()));
                }
                urls.put(cloud, l);
            });
            Endpoint a = Endpoint.parse(api);
            settings = new ParentService.Settings(Topology.load(borders), urls, zookeeper, data, zookeeperPort, root,
                    new InetSocketAddress(a.host(), a.port()));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        ParentService running;
        try {
            running = ParentService.start(settings);
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            return 1;
        }
        return Foreground.run(running, "parent broker running; API http://" + api + "/api/v1");
    }
}
