package org.gridstat.broker.hierarchy;

import java.util.List;
import org.gridstat.core.model.QosSpec;

/**
 * A subscription admitted by a parent broker: the clouds' segments it was split into, in order
 * from the publisher's cloud, and the border links between them.
 */
public record CrossCloudSubscription(long id, String variable, String subscriberRouter, String subscriberLink,
                                     QosSpec qos, List<Segment> segments, List<String> borderLinks) {
    public CrossCloudSubscription {
        segments = List.copyOf(segments);
        borderLinks = List.copyOf(borderLinks);
    }

    /**
     * One cloud's part: a subscription at its leaf broker from the router where the stream enters
     * the cloud to the router where it leaves (or is delivered), over that router's out-link.
     */
    public record Segment(String cloud, long leafSubscriptionId, List<String> routers, String exitLink, long boundNanos) {
        public Segment {
            routers = List.copyOf(routers);
        }
    }

    /** Every router the stream crosses, from the publisher's to the subscriber's. */
    public List<String> routers() {
        return segments.stream().flatMap(s -> s.routers().stream()).toList();
    }
}
