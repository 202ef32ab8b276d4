package org.gridstat.node.cli;

import java.util.concurrent.Callable;
import org.gridstat.node.testbed.CccComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gridstat testbed}: experiments run in real time on loopback, compared with the simulator. */
@Command(name = "testbed", mixinStandardHelpOptions = true,
        header = "Runs an experiment in real time on loopback and compares it with the simulator.",
        subcommands = {TestbedCommand.Ccc.class})
final class TestbedCommand {
    @Command(name = "ccc", mixinStandardHelpOptions = true,
            header = "The CCC thesis testbed on real routers, beside the simulator's run of it.",
            description = {"Runs the cooperative congestion control testbed (gateways gwA and gwB, an overlay router,"
                    + " the control center's gateway gwCC behind a 40,320 B/s bottleneck; six 260-byte streams, the HRT"
                    + " PMUs stepping from 20 to 40, 50 and 60 Hz) in real time on loopback: an in-process broker, four"
                    + " status routers, client publishers and a subscriber, every time divided and every rate multiplied"
                    + " by the time scale. The simulator runs the same scaled scenario; prints the misses per stream and"
                    + " interval of both as a markdown table."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the run finished (the table says how well they agree)", "2:bad options",
                    "3:--bottleneck kernel where network namespaces cannot be made (not root, no iproute2)"})
    static final class Ccc implements Callable<Integer> {
        @Option(names = "--time-scale", defaultValue = "4", paramLabel = "K",
                description = "How many times faster than the scenario's 100 s (default: ${DEFAULT-VALUE}: 25 s);"
                        + " at most 10, the estimator's 100 ms period then being 10 ms.")
        double timeScale;

        @Option(names = "--congestion", defaultValue = "on", paramLabel = "on|off",
                description = "Congestion control (bandwidth reassignment and notices to the publishers): on or off"
                        + " (default: ${DEFAULT-VALUE}).")
        String congestion;

        @Option(names = "--bottleneck", defaultValue = "router", paramLabel = "router|kernel",
                description = "Who shapes the bottleneck overlay->gwCC: the overlay router (default), or the kernel's HTB"
                        + " on a veth pair into a network namespace the run creates and removes (needs root).")
        String bottleneck;

        @Override
        public Integer call() throws Exception {
            if (!(timeScale > 0 && timeScale <= 10) || !(congestion.equals("on") || congestion.equals("off"))
                    || !(bottleneck.equals("router") || bottleneck.equals("kernel"))) {
                System.err.println("--time-scale must be in (0, 10], --congestion on or off, --bottleneck router or kernel");
                return 2;
            }
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                    System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "error"));
            CccComparison.Outcome o;
            if (bottleneck.equals("kernel")) {
                String why = org.gridstat.htb.netns.VethLink.whyNot();
                if (why != null) {
                    System.err.println("--bottleneck kernel: " + why);
                    return 3;
                }
                try (org.gridstat.htb.netns.VethLink veth = org.gridstat.htb.netns.VethLink.create("gsccc", "10.77.90.1/24",
                        "10.77.90.2/24");
                     org.gridstat.htb.mirror.HtbKernelShaping kernel = new org.gridstat.htb.mirror.HtbKernelShaping()) {
                    o = CccComparison.run(congestion.equals("on"), timeScale, System.err,
                            new org.gridstat.node.testbed.KernelBottleneck("overlay", "gwCC", veth, kernel));
                }
            } else {
                o = CccComparison.run(congestion.equals("on"), timeScale, System.err);
            }
            System.out.print(CccComparison.markdown(o));
            return 0;
        }
    }
}
