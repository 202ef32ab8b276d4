package org.gridstat.node.cli;

import java.util.concurrent.Callable;
import org.gridstat.node.Distribution;
import org.gridstat.node.FreeUdpPorts;
import org.gridstat.node.demo.DemoRun;
import org.gridstat.node.demo.PhasorDemo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        header = "Runs a broker and four routers on loopback with a 60 Hz stream through them, and its latency.",
        description = {"Starts an embedded ZooKeeper, a QoS broker and four status router nodes in a diamond, all on"
                + " loopback. A synthetic PMU declares a 60 Hz frequency variable to the broker and a subscriber"
                + " subscribes to it with two node-disjoint paths; prints the received rate and latency percentiles"
                + " each second, then the subscription's and the routers' statistics."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every sample arrived", "1:samples were lost or the node did not start"})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--seconds", defaultValue = "10", description = "How long to publish (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "60", description = "Samples per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--api-port", defaultValue = "0",
            description = "The broker's management API port on 127.0.0.1; 0 picks a free one (default).")
    int apiPort;

    @Option(names = "--phasor", description = "Show the phasor path instead: a simulated C37.118 PMU stream through a"
            + " substation gateway, the routers and the control center's gateway to a C37.118 client, bit for bit.")
    boolean phasor;

    @Override
    public Integer call() throws Exception {
        if (phasor) {
            if (seconds < 1) {
                System.err.println("--seconds must be at least 1");
                return 2;
            }
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                    System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
            return new PhasorDemo(seconds, System.out).run();
        }
        if (seconds < 1 || !(rate > 0 && rate <= 1000)) {
            System.err.println("--seconds must be at least 1 and --rate in (0, 1000]");
            return 2;
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        return new DemoRun(Distribution.bundles(), FreeUdpPorts.pick(), apiPort, rate, seconds, System.out).run();
    }
}
