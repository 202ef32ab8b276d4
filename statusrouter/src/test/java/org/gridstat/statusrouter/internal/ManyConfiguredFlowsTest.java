package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * RouterSettings accepts up to max.flows.per.link (1..65,536) flows per link and reports "every
 * bad key", but DataPath's constructor (DataPath.java:71-76) pushes the configured flows through the
 * engine's 4,096-command queue before applying any, so a valid file with more than 4,096 flows or
 * route destinations fails at start with "more configured flows than the command queue holds".
 */
class ManyConfiguredFlowsTest {
    @Test
    void aValidatedConfigurationOfFiveThousandRoutesStarts() {
        String[] routes = new String[5_000];
        for (int i = 0; i < routes.length; i++) {
            routes[i] = (i + 1) + " -> 127.0.0.1:9";
        }
        RouterSettings s = RouterSettings.of("many", "127.0.0.1:0", 1, "nio", 1 << 20, new String[0], new String[0],
                routes, 1_000_000_000L, 0.5, 8192);
        try (DataPlane plane = DataPlane.start(s)) {
            assertEquals(5_000, plane.flows().size());
        }
    }
}
