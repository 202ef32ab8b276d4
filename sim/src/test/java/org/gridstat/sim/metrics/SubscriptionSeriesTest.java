package org.gridstat.sim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SubscriptionSeriesTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /**
     * 20 Hz samples with a 50 ms bound. The last sample taken in the first second arrives, in time,
     * after the second ended: the first row delivered 19 and the second 21, but every sample of
     * each second was on time, and a late one is on time in neither.
     */
    @Test
    void aSampleDeliveredInTimeAfterItsIntervalIsOnTimeInTheIntervalItWasTaken() {
        SubscriptionSeries s = new SubscriptionSeries("cc", 50 * MS, 50 * MS, 50 * MS);
        for (int k = 0; k < 20; k++) {
            s.published(k, MS + k * 50 * MS);
            if (k < 19) {
                s.delivered(k, MS + k * 50 * MS, 20 * MS, false);
            }
        }
        s.close(0, S, 0, 0, 0);
        s.delivered(19, MS + 19 * 50 * MS, 20 * MS, false); // taken at 0.951 s, delivered after the row closed
        for (int k = 20; k < 40; k++) {
            s.published(k, MS + k * 50 * MS);
            s.delivered(k, MS + k * 50 * MS, k == 25 ? 60 * MS : 20 * MS, k == 25);
        }
        s.close(S, 2 * S, 0, 0, 0);

        List<FlowInterval> rows = s.rows();
        assertEquals(20, rows.get(0).offered());
        assertEquals(19, rows.get(0).delivered(), "deliveries by arrival");
        assertEquals(20, rows.get(0).offeredOnTime(), "every sample taken in the first second was on time");
        assertEquals(20, rows.get(1).offered());
        assertEquals(21, rows.get(1).delivered());
        assertEquals(1, rows.get(1).late());
        assertEquals(19, rows.get(1).offeredOnTime(), "the late one is not on time");
        assertEquals(39, s.summary(0, 2 * S).offeredOnTime());
    }
}
