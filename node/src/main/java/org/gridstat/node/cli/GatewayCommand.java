package org.gridstat.node.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.SubscriptionRejectedException;
import java.util.Map;
import org.gridstat.gateway.GatewayConfiguration;
import org.gridstat.gateway.PhasorGateway;
import org.gridstat.node.gateway.GatewayFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gridstat gateway}: a phasor gateway run in the foreground from its configuration file. */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        header = "Runs a phasor gateway: IEEE C37.118 devices in, C37.118 streams out.",
        description = {"Reads the PMUs and PDCs the file lists (as a PDC client over TCP, UDP, TCP with UDP data, or"
                + " spontaneous UDP), publishes each of their PMUs as a status variable at the router the file names,"
                + " and serves the streams the file lists to downstream C37.118 clients (as a PMU/PDC server over TCP"
                + " and UDP), rebuilt from the variables it subscribes to. The file's keys are in"
                + " docs/deploy-gateway.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:the broker refused a subscription or could not be reached, or a port was taken",
                "2:the file is missing or wrong (the message names the key)", "143:stopped by SIGTERM (130: by Ctrl-C)"})
final class GatewayCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The gateway's YAML file.")
    Path config;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(config)) {
            System.err.println("no such file: " + config);
            return 2;
        }
        PhasorGateway.Settings settings;
        String broker;
        try {
            Map<String, Object> properties = GatewayFile.load(config);
            settings = GatewayConfiguration.settings(properties);
            broker = GatewayConfiguration.brokerApi(properties);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        PhasorGateway gateway;
        try {
            gateway = PhasorGateway.start(settings, broker == null ? null : BrokerConnection.connect(URI.create(broker)));
        } catch (SubscriptionRejectedException e) {
            System.err.println("the broker refused a subscription: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage()); // a setting the file gave that starting showed wrong
            return 2;
        } catch (RuntimeException e) {
            // a port taken, a broker that cannot be reached or answers with an error
            System.err.println("the gateway did not start: " + e.getMessage());
            return 1;
        }
        return Foreground.run(gateway, "gateway: " + settings.devices().size() + " devices, " + settings.streams().size()
                + " streams" + (gateway.listenAddress() == null ? "" : ", receiving on " + gateway.listenAddress()));
    }
}
