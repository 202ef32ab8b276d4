package org.gridstat.statusrouter.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.forward.FlowEntry;

/**
 * The previous hops the broker's flows name, numbered for {@link FlowEntry#upstreamHops()}: the
 * publisher is {@link FlowEntry#PUBLISHER}, each previous router a number of its own for the data
 * plane's life. Bounded: a hop beyond {@link #MAX} is left unnumbered, and its flows' notices go
 * no further upstream. Thread-safe.
 */
final class UpstreamHops {
    static final int MAX = 4096;

    private final Map<Upstream, Integer> numbers = new HashMap<>();
    private final List<Upstream> hops = new ArrayList<>();
    private long unnumbered;

    /** The numbers of {@code upstream}'s hops, those beyond the bound left out. */
    synchronized int[] numbersOf(List<Upstream> upstream) {
        int[] out = new int[upstream.size()];
        int n = 0;
        for (Upstream u : upstream) {
            if (u.isPublisher()) {
                out[n++] = FlowEntry.PUBLISHER;
                continue;
            }
            Integer known = numbers.get(u);
            if (known == null && hops.size() < MAX) {
                known = hops.size();
                hops.add(u);
                numbers.put(u, known);
            }
            if (known == null) {
                unnumbered++;
            } else {
                out[n++] = known;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** The hop numbered {@code hop}, or {@code null}. */
    synchronized Upstream hop(int hop) {
        return hop >= 0 && hop < hops.size() ? hops.get(hop) : null;
    }

    /** Previous hops left unnumbered because the table was full. */
    synchronized long unnumbered() {
        return unnumbered;
    }
}
