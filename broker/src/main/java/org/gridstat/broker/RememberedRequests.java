package org.gridstat.broker;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.gridstat.broker.store.RememberedRequest;

/**
 * The requests a broker remembers by idempotency key: the last {@code capacity} made, oldest
 * first. Each carries the future of its change's recording, so a repeat that arrives before the
 * first request's change is durable is answered only once it is. Not thread-safe; the broker
 * serialises access.
 */
final class RememberedRequests {
    /** A remembered request and when its change became durable. */
    record Entry(RememberedRequest request, CompletableFuture<Void> durable) {
    }

    private final int capacity;
    private final Map<String, Entry> byKey = new LinkedHashMap<>();

    RememberedRequests(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    Entry get(String key) {
        return byKey.get(key);
    }

    /** Remembers a request loaded from the store (durable already); returns nothing to forget: the next add does. */
    void load(RememberedRequest r) {
        byKey.put(r.key(), new Entry(r, CompletableFuture.completedFuture(null)));
    }

    /**
     * Remembers a request whose change is being recorded; returns the keys forgotten to make room,
     * which the same change must delete from the store.
     */
    List<String> add(RememberedRequest r, CompletableFuture<Void> durable) {
        List<String> forgotten = new ArrayList<>();
        Iterator<String> oldest = byKey.keySet().iterator();
        while (byKey.size() >= capacity && oldest.hasNext()) {
            forgotten.add(oldest.next());
            oldest.remove();
        }
        byKey.put(r.key(), new Entry(r, durable));
        return forgotten;
    }
}
