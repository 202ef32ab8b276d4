package org.gridstat.gui;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.gridstat.gui.view.FlowRow;

/**
 * The broker's flows and the console's flow table as comparable sets, one line per flow: router,
 * flow id, link, class, AR, CR.
 */
final class ShownFlows {
    private ShownFlows() {
    }

    /** The broker's {@code GET /flows} as the table should show it. */
    static Set<String> ofBroker(JsonNode flows) {
        Set<String> out = new TreeSet<>();
        for (JsonNode f : flows) {
            out.add(f.get("router").asText() + "#" + f.get("flowId").asLong() + " " + f.get("link").asText() + " "
                    + f.get("serviceClass").asText() + " " + f.get("assuredBytesPerSecond").asLong() + " "
                    + f.get("ceilingBytesPerSecond").asLong());
        }
        return out;
    }

    /** The table's rows, in the same terms. */
    static Set<String> ofTable(List<FlowRow> rows) {
        Set<String> out = new TreeSet<>();
        for (FlowRow r : rows) {
            out.add(r.key() + " " + r.link() + " " + r.serviceClass() + " " + r.assured() + " " + r.ceiling());
        }
        return out;
    }

    /** Whether every flow the broker lists has its router's statistics. */
    static boolean allReported(JsonNode flows) {
        for (JsonNode f : flows) {
            if (!f.has("statistics")) {
                return false;
            }
        }
        return true;
    }
}
