package org.gridstat.core.stats;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.Set;
import org.gridstat.core.egress.LinkCounter;
import org.gridstat.core.forward.EngineCounter;
import org.gridstat.core.sched.QueueCounter;
import org.junit.jupiter.api.Test;

class CounterDescriptorTest {
    @Test
    void aCountersKeyIsItsNameInLowerCamelCaseAndEveryCounterIsDescribed() {
        assertEquals("sendErrors", LinkCounter.SEND_ERRORS.key());
        assertEquals("sent", LinkCounter.SENT.key());
        assertEquals("commandsStale", EngineCounter.COMMANDS_STALE.key());
        assertEquals("overflowDrops", QueueCounter.OVERFLOW_DROPS.key());
        for (CounterDescriptor[] table : new CounterDescriptor[][] {LinkCounter.values(), EngineCounter.values(),
            QueueCounter.values()}) {
            Set<String> keys = new HashSet<>();
            for (CounterDescriptor d : table) {
                assertTrue(keys.add(d.key()), "one key per counter: " + d.key());
                assertFalse(d.description().isBlank(), d.key() + " is described");
            }
        }
    }
}
