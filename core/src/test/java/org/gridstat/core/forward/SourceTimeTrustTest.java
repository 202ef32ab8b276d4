package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SourceTimeTrustTest {
    @Test
    void aWindowThatTrustsNoClockAheadIsRefusedAsTheMessageSays() {
        // An ahead window of 0 would refuse every frame of a publisher whose clock is 1 ns ahead.
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new SourceTimeTrust(0, 10_000_000_000L));
        assertEquals("the source-time window must be positive: ahead 0 ns, age 10000000000 ns", zero.getMessage());
        IllegalArgumentException age = assertThrows(IllegalArgumentException.class, () -> new SourceTimeTrust(1, 0));
        assertEquals("the source-time window must be positive: ahead 1 ns, age 0 ns", age.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SourceTimeTrust(-1, 1));
        assertEquals(1, new SourceTimeTrust(1, 1).maxAheadNanos(), "a nanosecond is a window");
    }
}
