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
            exitCodeList = {"0:the run finished (the table says how well they agree)", "2:bad options"})
    static final class Ccc implements Callable<Integer> {
        @Option(names = "--time-scale", defaultValue = "4", paramLabel = "K",
                description = "How many times faster than the scenario's 100 s (default: ${DEFAULT-VALUE}: 25 s);"
                        + " at most 10, the estimator's 100 ms period then being 10 ms.")
        double timeScale;

        @Option(names = "--congestion", defaultValue = "on", paramLabel = "on|off",
                description = "Congestion control (bandwidth reassignment and notices to the publishers): on or off"
                        + " (default: ${DEFAULT-VALUE}).")
        String congestion;

        @Override
        public Integer call() throws Exception {
            if (!(timeScale > 0 && timeScale <= 10) || !(congestion.equals("on") || congestion.equals("off"))) {
                System.err.println("--time-scale must be in (0, 10] and --congestion on or off");
                return 2;
            }
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                    System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "error"));
            CccComparison.Outcome o = CccComparison.run(congestion.equals("on"), timeScale, System.err);
            System.out.print(CccComparison.markdown(o));
            return 0;
        }
    }
}
