package org.gridstat.node.cli;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.gridstat.broker.BrokerService;
import org.gridstat.broker.api.ApiLimits;
import org.gridstat.broker.control.ControlLimits;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.broker.topology.Topology;
import org.gridstat.core.model.DurationText;
import org.gridstat.core.model.Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "broker", mixinStandardHelpOptions = true,
        header = "Runs a QoS broker replica until SIGTERM or Ctrl-C.",
        description = {"Its state lives in ZooKeeper: an embedded server by default (data in --data), or the ensemble"
                + " named by --zookeeper. Replicas sharing a ZooKeeper root elect a leader; the others stand by"
                + " and take over, state intact, if it fails. Routers list every replica's control address."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:the broker did not start", "2:the arguments or topology are invalid"})
final class BrokerCommand implements Callable<Integer> {
    @Option(names = {"-t", "--topology"}, paramLabel = "FILE",
            description = "Topology file (docs/topology.md); stored in ZooKeeper on first start. Without it, the stored one is used.")
    Path topology;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT,...", defaultValue = "",
            description = "ZooKeeper ensemble to use instead of the embedded server.")
    String zookeeper;

    @Option(names = "--data", paramLabel = "DIR", defaultValue = "gridstat-data/zookeeper",
            description = "Embedded ZooKeeper's data folder (default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--zookeeper-port", paramLabel = "PORT", defaultValue = "2181",
            description = "Embedded ZooKeeper's port on loopback (default: ${DEFAULT-VALUE}).")
    int zookeeperPort;

    @Option(names = "--root", paramLabel = "PATH", defaultValue = "/gridstat",
            description = "ZooKeeper path of this broker's state (default: ${DEFAULT-VALUE}); one per cloud.")
    String root;

    @Option(names = "--id", paramLabel = "NAME", description = "Replica name (default: host-pid).")
    String id;

    @Option(names = "--control", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8471",
            description = "Control channel for routers, bound while this replica leads (default: ${DEFAULT-VALUE}).")
    String control;

    @Option(names = "--api", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8470",
            description = "Management API (HTTP/JSON) (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--api-advertised", paramLabel = "URL", defaultValue = "",
            description = "The API address a standby names to clients as this replica's while it leads (a 503's"
                    + " 'leader', /status's leaderApi): http://host:port as clients reach it (default: http:// and --api,"
                    + " or the host's name if --api binds a wildcard such as 0.0.0.0).")
    String apiAdvertised;

    @Option(names = "--session-timeout", paramLabel = "DURATION", defaultValue = "3s",
            description = "ZooKeeper session timeout: how soon a dead leader is replaced (default: ${DEFAULT-VALUE}).")
    String sessionTimeout;

    @Option(names = "--heartbeat", paramLabel = "DURATION", defaultValue = "1s",
            description = "How often the broker sends a heartbeat to each router when nothing else was sent (default: ${DEFAULT-VALUE}).")
    String heartbeat;

    @Option(names = "--heartbeat-timeout", paramLabel = "DURATION", defaultValue = "3s",
            description = "A router silent this long loses its control session (default: ${DEFAULT-VALUE}).")
    String heartbeatTimeout;

    @Option(names = "--hello-deadline", paramLabel = "DURATION", defaultValue = "2s",
            description = "A control connection that does not say Hello within this is closed (default: ${DEFAULT-VALUE}).")
    String helloDeadline;

    @Option(names = "--control-max-connections", paramLabel = "N", defaultValue = "1024",
            description = "Control port connection cap; at it, the oldest connection without Hello makes room (default: ${DEFAULT-VALUE}).")
    int controlMaxConnections;

    @Option(names = "--adaptation-delay", paramLabel = "DURATION|off", defaultValue = "200ms",
            description = "How long after a router reports a congested HRT flow it cannot serve the broker re-plans it,"
                    + " if it is still short: admits its subscription at the rate it needs, on its paths or others;"
                    + " off: never (default: ${DEFAULT-VALUE}; the thesis's broker took 60s).")
    String adaptationDelay;

    @Option(names = "--api-max-connections", paramLabel = "N", defaultValue = "1000",
            description = "Management API connection cap; at it, the longest-idle connection makes room (default: ${DEFAULT-VALUE}).")
    int apiMaxConnections;

    @Option(names = "--api-request-deadline", paramLabel = "DURATION", defaultValue = "10s",
            description = "An API request must arrive whole within this of its first byte, else 408 (default: ${DEFAULT-VALUE}).")
    String apiRequestDeadline;

    @Override
    public Integer call() {
        BrokerService.Settings settings;
        try {
            Topology t = topology == null ? null : Topology.load(topology);
            Endpoint c = Endpoint.parse(control);
            Endpoint a = Endpoint.parse(api);
            settings = new BrokerService.Settings(id != null ? id : defaultId(), zookeeper, data, zookeeperPort, root,
                    Duration.ofNanos(DurationText.nanos(sessionTimeout)), new InetSocketAddress(c.host(), c.port()),
                    new InetSocketAddress(a.host(), a.port()), t,
                    new ControlLimits(new ControlLiveness.Timing(DurationText.nanos(heartbeat), DurationText.nanos(heartbeatTimeout)),
                            DurationText.nanos(helloDeadline), controlMaxConnections,
                            adaptationDelay.equalsIgnoreCase("off") ? ControlLimits.NO_ADAPTATION : DurationText.nanos(adaptationDelay)),
                    new ApiLimits(apiMaxConnections, DurationText.nanos(apiRequestDeadline)), apiAdvertised);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        BrokerService running;
        try {
            running = BrokerService.start(settings);
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            return 1;
        }
        return Foreground.run(running, "broker " + settings.replicaId() + " running; API http://" + api + "/api/v1"
                + " (advertised as " + running.advertisedApi() + ")");
    }

    private static String defaultId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "broker";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
