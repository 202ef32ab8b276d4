package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.gridstat.core.forward.SourceTimeTrust;
import org.junit.jupiter.api.Test;

class RouterSettingsTest {
    @Test
    void theSourceTimeWindowKeysMustBePositiveAndAreNamedWhenNot() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> RouterSettings.sourceTimeTrust(0, 10_000));
        assertTrue(zero.getMessage().contains("source.time.ahead.ms must be positive"), zero.getMessage());
        assertTrue(zero.getMessage().endsWith("got 0"), zero.getMessage());
        IllegalArgumentException age = assertThrows(IllegalArgumentException.class, () -> RouterSettings.sourceTimeTrust(2_000, -1));
        assertTrue(age.getMessage().endsWith("source.time.max.age.ms must be positive, got -1"), age.getMessage());
        assertEquals(new SourceTimeTrust(1_000_000L, 10_000_000_000L), RouterSettings.sourceTimeTrust(1, 10_000));
        assertEquals(new SourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE),
                RouterSettings.sourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE), "beyond a long of nanoseconds: everything");
    }

    @Test
    void maxFlowsPerLinkIsAtMostSixtyFiveThousandFiveHundredAndThirtySix() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RouterSettings.of("r1",
                "127.0.0.1:0", 1, "nio", 1 << 20, new String[0], new String[0], new String[0], 1_000_000_000L, 0.5, 65_537));
        assertTrue(e.getMessage().contains("max.flows.per.link must be 1..65536, got 65537"), e.getMessage());
        assertEquals(65_536, RouterSettings.of("r1", "127.0.0.1:0", 1, "nio", 1 << 20, new String[0], new String[0],
                new String[0], 1_000_000_000L, 0.5, 65_536).maxFlowsPerLink);
    }
}
