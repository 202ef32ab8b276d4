package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The API takes router ids and link names of 1..64 letters, digits, '.', '_' and '-'. A router or
 * delivery link the broker governs must be one a client can name: either the topology refuses the
 * name, or the API takes it.
 */
class TopologyNamesTest {
    @Test
    void everyRouterAndDeliveryLinkTheTopologyTakesCanBeNamedInASubscription() {
        for (String[] names : List.of(new String[] {"Zürich", "pdc"}, new String[] {"sub:7", "pdc"},
                new String[] {"a", "pdc main"}, new String[] {"a", "eth0:1"}, new String[] {"r" + "1".repeat(80), "pdc"})) {
            String router = names[0];
            String link = names[1];
            String yaml = String.join("\n",
                    "routers:",
                    "  - {id: \"" + router + "\", capacity: 100000, address: 127.0.0.1:19470,"
                            + " delivery: [{name: \"" + link + "\", address: 127.0.0.1:19471}]}",
                    "  - {id: b, capacity: 100000, address: 127.0.0.1:19480}",
                    "links:",
                    "  - {between: [\"" + router + "\", b], bandwidth: 12500000, delay: 1ms}",
                    "");
            Topology t;
            try {
                t = Topology.parse(yaml, "test");
            } catch (IllegalArgumentException refused) {
                continue; // the topology refuses what the API cannot name: consistent
            }
            assertNotNull(t.router(router));
            String body = "{\"variable\":\"s1/pmu1/freq\",\"subscriberRouter\":\"" + router + "\",\"subscriberLink\":\""
                    + link + "\",\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}";
            assertDoesNotThrow(() -> RequestParser.subscription(body.getBytes(StandardCharsets.UTF_8)),
                    "router '" + router + "' with delivery link '" + link + "' is in the topology");
            String declare = "{\"name\":\"s1/pmu1/freq\",\"router\":\"" + router + "\",\"frameBytes\":260,\"rateHz\":60}";
            assertDoesNotThrow(() -> RequestParser.declaration(declare.getBytes(StandardCharsets.UTF_8)),
                    "router '" + router + "' is in the topology");
        }
    }
}
