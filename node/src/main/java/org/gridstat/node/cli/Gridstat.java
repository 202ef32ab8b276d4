package org.gridstat.node.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code gridstat} command line. */
@Command(name = "gridstat", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "QoS-managed publish-subscribe middleware for the power grid.",
        subcommands = {RouterCommand.class, BrokerCommand.class, ParentCommand.class, AdminCommand.class, DemoCommand.class, BenchCommand.class, SimCommand.class, RpcEvalCommand.class, TestbedCommand.class, GatewayCommand.class, PmuSimCommand.class, GuiCommand.class, HtbCommand.class,
                CommandLine.HelpCommand.class})
public final class Gridstat {
    @Option(names = "--log-level", scope = ScopeType.INHERIT, paramLabel = "LEVEL",
            description = "Log level on standard error: trace, debug, info, warn, error or off (default: info).")
    void logLevel(String level) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
    }

    /** The command line, its help wrapped to the terminal's width (80 columns where that is unknown). */
    static CommandLine commandLine() {
        return new CommandLine(new Gridstat()).setUsageHelpAutoWidth(true);
    }

    public static void main(String[] args) {
        // ZooKeeper and Curator narrate every session at INFO; their warnings are what an operator needs
        for (String noisy : new String[] {"org.apache.zookeeper", "org.apache.curator"}) {
            String key = "org.slf4j.simpleLogger.log." + noisy;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "warn");
            }
        }
        int code = commandLine().execute(args);
        // During a signal-triggered shutdown System.exit would wait forever for the hooks.
        if (!ShutdownSignal.received()) {
            System.exit(code);
        }
    }
}
