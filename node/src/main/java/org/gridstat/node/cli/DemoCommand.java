package org.gridstat.node.cli;

import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.node.demo.DemoRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Starts a status router node, a synthetic PMU publishing a 60 Hz frequency variable and a",
                "subscriber behind the router, all on loopback; prints the received rate and latency",
                "percentiles each second, then a summary."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every sample arrived", "1:samples were lost or the node did not start"})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--seconds", defaultValue = "10", description = "How long to publish (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "60", description = "Samples per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--port", defaultValue = "0",
            description = "Router data port on 127.0.0.1; 0 picks a free one (default).")
    int port;

    @Override
    public Integer call() throws Exception {
        if (seconds < 1 || !(rate > 0 && rate <= 10_000)) {
            System.err.println("--seconds must be at least 1 and --rate in (0, 10000]");
            return 2;
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        int routerPort = port != 0 ? port : FreeUdpPorts.pick();
        int subscriberPort = FreeUdpPorts.pick();
        return new DemoRun(Distribution.bundles(), routerPort, subscriberPort, rate, seconds, System.out).run();
    }
}
