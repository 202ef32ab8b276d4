package org.gridstat.broker.hierarchy;

import java.util.List;
import org.gridstat.core.management.SubscriptionDocument.HopDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.VariableId;

/**
 * A subscription admitted by a parent broker: the variable (its id and frame size, for the border
 * reservations), the clouds' segments it was split into, in order from the publisher's cloud, and
 * the border links between them.
 */
public record CrossCloudSubscription(long id, String variable, VariableId variableId, int frameBytes,
                                     String subscriberRouter, String subscriberLink, QosSpec qos, List<Segment> segments,
                                     List<String> borderLinks) {
    public CrossCloudSubscription {
        segments = List.copyOf(segments);
        borderLinks = List.copyOf(borderLinks);
    }

    /**
     * One cloud's part: a subscription at its leaf broker from the router where the stream enters
     * the cloud to the router where it leaves (or is delivered) over its out-link {@code exitLink},
     * with its share of the bound and its hops (the last one crossing the border, if any).
     */
    public record Segment(String cloud, long leafSubscriptionId, List<HopDocument> hops, String exitLink, long boundNanos) {
        public Segment {
            hops = List.copyOf(hops);
        }
    }

    /** Every router the stream crosses, from the publisher's to the subscriber's. */
    public List<String> routers() {
        return segments.stream().flatMap(s -> s.hops().stream()).map(HopDocument::router).toList();
    }

    /** The whole path's hops, each segment's last one leading into the next cloud. */
    public List<HopDocument> hops() {
        return segments.stream().flatMap(s -> s.hops().stream()).toList();
    }
}
