package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.gridstat.core.forward.FlowEntry;
import org.junit.jupiter.api.Test;

class FlowConfigTest {
    private static final Map<String, OutLinkConfig> LINKS =
            Map.of("r2", OutLinkConfig.parse("name=r2 address=127.0.0.1:9480 capacity=1250000"));
    private static final Map<String, Integer> INDEX = Map.of("r2", 0);

    @Test
    void aFlowLineWithoutTheRestDelayHasNoneKnown() {
        FlowEntry f = FlowConfig.parse("id=1 variable=1 link=r2 class=HRT assured=15600 budget=10ms", INDEX, LINKS);
        assertEquals(10_000_000L, f.downstreamBudgetNanos());
        assertEquals(0, f.minRestDelayNanos());
    }

    @Test
    void theRestDelayTakesADurationAndRefusesANegativeOne() {
        FlowEntry f = FlowConfig.parse("id=1 variable=1 link=r2 budget=10ms minRestDelay=4.25ms", INDEX, LINKS);
        assertEquals(4_250_000L, f.minRestDelayNanos());
        assertEquals(10_000_000L, f.downstreamBudgetNanos());
        assertEquals(250_000L, FlowConfig.parse("id=2 variable=1 link=r2 minRestDelay=250us", INDEX, LINKS).minRestDelayNanos());

        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> FlowConfig.parse("id=1 variable=1 link=r2 minRestDelay=-1ms", INDEX, LINKS));
        assertTrue(bad.getMessage().contains("minRestDelay=-1ms"), bad.getMessage());
        IllegalArgumentException unitless = assertThrows(IllegalArgumentException.class,
                () -> FlowConfig.parse("id=1 variable=1 link=r2 minRestDelay=4", INDEX, LINKS));
        assertTrue(unitless.getMessage().contains("needs a unit"), unitless.getMessage());
    }
}
