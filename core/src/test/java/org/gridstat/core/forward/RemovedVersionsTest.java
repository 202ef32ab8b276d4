package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RemovedVersionsTest {
    @Test
    void remembersTheLatestRemovalsUpToItsCapacityGrowingAsTheyCome() {
        RemovedVersions r = new RemovedVersions(1_000);
        for (long id = 1; id <= 1_500; id++) {
            r.remember(id, id * 10);
        }
        assertEquals(1_000, r.size(), "bounded");
        assertEquals(0, r.versionOf(500), "the oldest forgotten");
        assertEquals(5_010, r.versionOf(501), "the oldest kept");
        assertEquals(15_000, r.versionOf(1_500));
        r.remember(501, 7); // removed again: the newer removal is kept, the older entry is spent
        for (long id = 2_000; id < 2_999; id++) {
            r.remember(id, 1);
        }
        assertEquals(7, r.versionOf(501), "a flow removed again outlives its first removal");
        assertEquals(0, r.versionOf(1_500));
        assertEquals(1_000, r.size());
    }
}
