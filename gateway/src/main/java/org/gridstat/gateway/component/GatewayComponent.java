package org.gridstat.gateway.component;

import java.net.URI;
import java.util.Map;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.gateway.GatewayConfiguration;
import org.gridstat.gateway.PhasorGateway;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The phasor gateway as a Declarative Services component: it runs while Config Admin holds a
 * configuration of {@value GatewayConfiguration#PID}, and a new configuration restarts it. A bad
 * configuration, or a subscription the broker refuses, fails activation with the reason logged.
 */
@Component(service = GatewayComponent.class, configurationPid = GatewayConfiguration.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, immediate = true)
public final class GatewayComponent {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayComponent.class);

    private final PhasorGateway gateway;

    @Activate
    public GatewayComponent(Map<String, Object> properties) {
        try {
            PhasorGateway.Settings settings = GatewayConfiguration.settings(properties);
            String api = GatewayConfiguration.brokerApi(properties);
            gateway = PhasorGateway.start(settings, api == null ? null : BrokerConnection.connect(URI.create(api)));
            LOG.info("phasor gateway started: {} devices, {} streams", settings.devices().size(),
                    settings.streams().size());
        } catch (IllegalArgumentException e) {
            LOG.error("phasor gateway not started: {}", e.getMessage());
            throw e;
        } catch (SubscriptionRejectedException e) {
            LOG.error("phasor gateway not started: the broker refused a subscription: {}", e.getMessage());
            throw new IllegalStateException(e.getMessage(), e);
        } catch (RuntimeException e) {
            // a port taken, a broker that cannot be reached
            LOG.error("phasor gateway not started: {}", e.getMessage());
            throw e;
        }
    }

    /** The running gateway: its devices and streams, for views and tests. */
    public PhasorGateway gateway() {
        return gateway;
    }

    @Deactivate
    void deactivate() {
        gateway.close();
    }
}
