package org.gridstat.core.egress;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class DataPathWarmUpTest {
    @Test
    void itForwardsItsFramesThroughTheWholePathFilteringTheRateLimitedFlow() {
        // 3,000 frames over 6 ms of simulated time, a third each HRT, LRT (filtered to 60 and 20 Hz) and BE.
        long sent = DataPathWarmUp.run(3_000);
        assertTrue(sent >= 1_000, "HRT frames at least: " + sent);
        assertTrue(sent <= 2_001, "the LRT flow's filter passed one sample in 6 ms: " + sent);
    }
}
