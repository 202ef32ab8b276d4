package org.gridstat.client;

import java.util.List;
import org.gridstat.core.model.QosSpec;

/**
 * An admitted subscription: its id (to modify or cancel it), the variable, where it is delivered
 * (the subscriber's router and that router's out-link to the subscriber), the QoS granted, and the
 * disjoint paths it takes, each the routers from the publisher's to the subscriber's.
 */
public record BrokerSubscription(long id, String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                 List<List<String>> paths) {
    public BrokerSubscription {
        paths = paths.stream().map(List::copyOf).toList();
    }
}
