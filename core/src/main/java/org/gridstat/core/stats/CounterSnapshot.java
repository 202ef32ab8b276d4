package org.gridstat.core.stats;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of one enum of counters at one instant, read from the {@link CounterArray} its data
 * path writes. Immutable; readers on any thread.
 */
public final class CounterSnapshot<D extends Enum<D> & CounterDescriptor> {
    private final EnumMap<D, Long> values;

    private CounterSnapshot(EnumMap<D, Long> values) {
        this.values = values;
    }

    /** Reads every counter of {@code type} from {@code array}, indexed by ordinal. */
    public static <D extends Enum<D> & CounterDescriptor> CounterSnapshot<D> read(Class<D> type, CounterArray array) {
        EnumMap<D, Long> m = new EnumMap<>(type);
        for (D d : type.getEnumConstants()) {
            m.put(d, array.get(d.ordinal()));
        }
        return new CounterSnapshot<>(m);
    }

    /** Sums snapshots of the same counters (one per ingress thread, say). */
    public static <D extends Enum<D> & CounterDescriptor> CounterSnapshot<D> sum(Class<D> type,
                                                                                Iterable<CounterSnapshot<D>> parts) {
        EnumMap<D, Long> m = new EnumMap<>(type);
        for (D d : type.getEnumConstants()) {
            m.put(d, 0L);
        }
        for (CounterSnapshot<D> p : parts) {
            p.values.forEach((d, v) -> m.merge(d, v, Long::sum));
        }
        return new CounterSnapshot<>(m);
    }

    public long get(D counter) {
        return values.get(counter);
    }

    /** Every counter by its key, in declaration order: what reports and APIs print. */
    public Map<String, Long> byKey() {
        Map<String, Long> m = new LinkedHashMap<>();
        values.forEach((d, v) -> m.put(d.key(), v));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        values.forEach((d, v) -> b.append(b.length() == 0 ? "" : " ").append(d.key()).append('=').append(v));
        return b.toString();
    }
}
