package org.gridstat.statusrouter.api;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.gridstat.core.wire.RejectReason;

/** Data-path counters at one instant, summed over the router's event loops. */
public final class RouterCounters {
    private final long received;
    private final long forwarded;
    private final long sendErrors;
    private final Map<RejectReason, Long> dropped;

    public RouterCounters(long received, long forwarded, long sendErrors, Map<RejectReason, Long> dropped) {
        this.received = received;
        this.forwarded = forwarded;
        this.sendErrors = sendErrors;
        EnumMap<RejectReason, Long> copy = new EnumMap<>(RejectReason.class);
        copy.putAll(dropped);
        this.dropped = Collections.unmodifiableMap(copy);
    }

    /** Datagrams that arrived on the data port, valid or not. */
    public long received() {
        return received;
    }

    /** Copies sent to out-links. */
    public long forwarded() {
        return forwarded;
    }

    /** Copies the operating system refused to send. */
    public long sendErrors() {
        return sendErrors;
    }

    /** Datagrams dropped, by reason (reasons never seen are absent). */
    public Map<RejectReason, Long> dropped() {
        return dropped;
    }

    public long dropped(RejectReason reason) {
        return dropped.getOrDefault(reason, 0L);
    }

    public long droppedTotal() {
        return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
        return "received=" + received + " forwarded=" + forwarded + " sendErrors=" + sendErrors + " dropped=" + dropped;
    }
}
