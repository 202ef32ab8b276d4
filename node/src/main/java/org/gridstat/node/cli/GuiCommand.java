package org.gridstat.node.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridstat.gui.OperatorConsole;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "gui", mixinStandardHelpOptions = true,
        header = "Opens the operator console: a window on a running broker's flows, topology, devices and alarms.",
        description = {"A client of the broker's management API only (docs/gui.md). It reads the broker's event"
                + " stream (changes pushed within a quarter second; status, topology, counters and variables read every"
                + " 10 s), or with --poll every route every second; it follows the leading replica, says when its data"
                + " is stale and reconnects by itself. Views: Ctrl+1 topology, Ctrl+2 flows and subscriptions (admit, modify, tear down), Ctrl+3 live charts,"
                + " Ctrl+4 devices at the gateways, Ctrl+5 alarms (latched until acknowledged).",
                "Needs a display (DISPLAY or WAYLAND_DISPLAY); scripts/setup installs the libraries JavaFX needs."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the window was closed", "1:no display, or JavaFX could not open a window", "2:usage error"})
final class GuiCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--broker", paramLabel = "URL,...", defaultValue = "http://127.0.0.1:8470", split = ",",
            description = "The replicas' management API addresses (default: ${DEFAULT-VALUE}).")
    List<URI> brokers = new ArrayList<>();

    @Option(names = "--poll", description = "Read every route of the management API every second instead of its event"
            + " stream (GET /api/v1/events): for a broker without the stream, or a proxy that holds it back.")
    boolean poll;

    /** The environment the display is looked up in (a test gives its own). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() {
        for (URI u : brokers) {
            if (!"http".equals(u.getScheme()) || u.getHost() == null || u.getPort() < 1 || u.getPort() > 65_535) {
                spec.commandLine().getErr().println("--broker: expected http://host:port, got " + u);
                return 2;
            }
        }
        return OperatorConsole.run(brokers, poll, environment, spec.commandLine().getErr());
    }
}
