package org.gridstat.gui.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.wire.WireFormat;

/**
 * A link's load per class, from the flows its router forwards on it: what they send now (the
 * router's departure rate estimates) and what is reserved for them (their assured rates), against
 * the link's bandwidth and each class's share of it. Both count each event's IP and UDP headers,
 * as the bandwidth and the reservations do: a full link reads 100 %, whatever its frames' size.
 */
public record LinkLoad(NetworkTopology.Link link, Map<String, Long> sentBytesPerSecond,
                       Map<String, Long> reservedBytesPerSecond) {
    public static final List<String> CLASSES = List.of("HRT", "LRT", "BE");

    /** The load of {@code link} from the flows at its source router whose out-link is its far end. */
    public static LinkLoad of(NetworkTopology.Link link, List<Stamped<Flow>> flows) {
        Map<String, Long> sent = new LinkedHashMap<>();
        Map<String, Long> reserved = new LinkedHashMap<>();
        CLASSES.forEach(c -> {
            sent.put(c, 0L);
            reserved.put(c, 0L);
        });
        for (Stamped<Flow> s : flows) {
            Flow f = s.value();
            if (f.router().equals(link.from()) && f.link().equals(link.to())) {
                reserved.merge(f.serviceClass(), f.assuredBytesPerSecond(), Long::sum);
                if (f.statistics() != null) {
                    sent.merge(f.serviceClass(), onTheWire(f.statistics()), Long::sum);
                }
            }
        }
        return new LinkLoad(link, sent, reserved);
    }

    /**
     * A flow's departure rate with its events' headers: the router estimates frames alone, and the
     * events a second are the frames' rate over their mean size since the flow was installed.
     */
    static long onTheWire(FlowStatistics s) {
        if (s.eventsSent() <= 0 || s.bytesSent() <= 0) {
            return s.departureBytesPerSecond();
        }
        double eventsPerSecond = s.departureBytesPerSecond() * (double) s.eventsSent() / s.bytesSent();
        return s.departureBytesPerSecond() + Math.round(eventsPerSecond * WireFormat.DATAGRAM_OVERHEAD);
    }

    /** What a class sends, as a share of the whole link (0..1 and beyond). */
    public double utilisation(String serviceClass) {
        return link.bandwidthBytesPerSecond() <= 0 ? 0
                : sentBytesPerSecond.getOrDefault(serviceClass, 0L) / (double) link.bandwidthBytesPerSecond();
    }

    /** What all classes send, as a share of the link. */
    public double utilisation() {
        double u = 0;
        for (String c : CLASSES) {
            u += utilisation(c);
        }
        return u;
    }

    /** What is reserved for a class, as a share of that class's part of the link ({@code NaN}: the class has none). */
    public double reservedOfShare(String serviceClass) {
        double share = link.sharePercent().getOrDefault(serviceClass, 0) / 100.0 * link.bandwidthBytesPerSecond();
        return share <= 0 ? Double.NaN : reservedBytesPerSecond.getOrDefault(serviceClass, 0L) / share;
    }
}
