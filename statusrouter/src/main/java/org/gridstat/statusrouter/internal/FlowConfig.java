package org.gridstat.statusrouter.internal;

import org.gridstat.core.model.ConfigLine;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;

/**
 * Parses a flow line. Keys: {@code id}, {@code variable}, {@code link} (an out-link's name),
 * {@code class} (HRT, LRT, BE; default BE), {@code assured}, {@code minimum}, {@code ceiling}
 * (bytes/s; defaults 0, 0, the link's capacity), {@code buffer} (events, default 20),
 * {@code rates} (subscription rates in Hz routed over the link, comma-separated; absent means every
 * sample), {@code publisher} (the publisher's rate in Hz, for the filter's jitter tolerance),
 * {@code budget} (the path's budget after this hop, e.g. 10ms), {@code minRestDelay} (the least
 * delay of the path after this hop, propagation and transmission, e.g. 4.2ms; default 0: none
 * known), {@code group} (correlation group), {@code version} (default 1), {@code upstream}
 * ({@code publisher}: this router is the flow's first hop, where congestion notices for it go to
 * the publisher; absent: not known. Previous routers come from the broker, which knows the path).
 */
final class FlowConfig {
    private static final Set<String> KEYS = Set.of("id", "variable", "link", "class", "assured", "minimum", "ceiling",
            "buffer", "rates", "publisher", "budget", "minRestDelay", "group", "version", "upstream");

    private FlowConfig() {
    }

    static FlowEntry parse(String text, Map<String, Integer> linkIndex, Map<String, OutLinkConfig> links) {
        ConfigLine line = new ConfigLine(text, KEYS);
        try {
            long id = line.number("id", -1);
            if (id < 0) {
                throw line.error("missing or negative 'id'");
            }
            VariableId variable = VariableId.parse(line.text("variable"));
            String linkName = line.text("link");
            Integer index = linkIndex.get(linkName);
            if (index == null) {
                throw line.error("no out-link named '" + linkName + "'");
            }
            ServiceClass cls;
            try {
                cls = ServiceClass.valueOf(line.text("class", "BE").toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw line.error("class must be HRT, LRT or BE");
            }
            long capacity = links.get(linkName).spec.capacity();
            FlowSpec spec = FlowSpec.of(id, cls, line.number("assured", 0), line.number("minimum", 0),
                    line.number("ceiling", capacity), (int) line.number("buffer", FlowSpec.DEFAULT_BUFFER_EVENTS),
                    line.text("group", ""));
            long[] intervals = new long[0];
            if (line.has("rates")) {
                String[] rates = line.text("rates").split(",");
                intervals = new long[rates.length];
                for (int i = 0; i < rates.length; i++) {
                    intervals[i] = SampleGrid.ofRate(hz(line, rates[i])).intervalNanos();
                }
            }
            long publisher = line.has("publisher") ? SampleGrid.ofRate(hz(line, line.text("publisher"))).intervalNanos() : 0;
            int[] upstream = new int[0];
            if (line.has("upstream")) {
                if (!line.text("upstream").equals("publisher")) {
                    throw line.error("upstream may only be 'publisher' in a router's file (the broker names previous routers)");
                }
                upstream = new int[] {FlowEntry.PUBLISHER};
            }
            return new FlowEntry(line.number("version", 1), variable.value(), index, spec, intervals, publisher,
                    line.nanos("budget", 0), line.nanos("minRestDelay", 0), upstream);
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("'") ? e : line.error(e.getMessage());
        }
    }

    private static int hz(ConfigLine line, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw line.error("rate '" + text + "' is not a whole number of Hz");
        }
    }
}
