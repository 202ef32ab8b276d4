package org.gridstat.gui.model;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.Resource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A flow's staleness when its router's clock is off the console's, on a clock the test moves: the
 * broker sends the whole list of flows whenever one changes (another router's report, every
 * second), so a silent router's flows keep coming with their old report. A router whose clock runs
 * ahead must still be marked stale once it stops reporting, and one whose clock runs behind must not
 * be marked stale while it reports.
 */
class ConsoleModelClockSkewTest {
    private static final long HOUR = 3_600_000L;
    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final ConsoleModel model = new ConsoleModel(now::get);

    @BeforeEach
    void live() {
        model.connection(new ConnectionState(ConnectionState.Kind.LIVE, now.get(), "test", ""));
    }

    private static Flow flow(String router, long reportedAt) {
        return new Flow(router, router.equals("ahead") ? 1 : 2, 1, 7, "cc", "HRT", 4_000, 4_000L, 8_000, List.of(),
                new FlowStatistics(reportedAt, 10, 600, 0, 0, 0, 3_000, 3_000, 3_000, "STABLE", 4_000, 0, 0, 120L, 0L));
    }

    private boolean stale(String router) {
        ConsoleSnapshot s = model.snapshot();
        return s.stale(s.flows().stream().filter(f -> f.value().router().equals(router)).findFirst().orElseThrow());
    }

    @Test
    void aRouterWhoseClockRunsAnHourAheadIsStaleFiveSecondsAfterItStopsReporting() {
        long last = 0;
        for (int i = 0; i < 3; i++) { // reports every second, then stops
            last = now.get() + HOUR;
            model.received(Resource.FLOWS, List.of(flow("ahead", last), flow("other", now.get())), now.get());
            now.addAndGet(1_000);
        }
        assertFalse(stale("ahead"), "it reported a second ago");
        for (int i = 0; i < 24; i++) { // the other router goes on reporting: the list comes again every 250 ms
            now.addAndGet(250);
            model.received(Resource.FLOWS, List.of(flow("ahead", last), flow("other", now.get())), now.get());
        }
        assertTrue(stale("ahead"), "no report for 7 s, though its last report's time is still an hour ahead");
        assertFalse(stale("other"));
    }

    @Test
    void aRouterWhoseClockRunsBehindIsNotStaleWhileItReports() {
        long last = 0;
        for (int i = 0; i < 10; i++) { // 30 s behind, reporting every second
            last = now.get() - 30_000;
            model.received(Resource.FLOWS, List.of(flow("behind", last)), now.get());
            now.addAndGet(1_000);
        }
        assertFalse(stale("behind"), "it reported a second ago, by the console's clock");
        for (int i = 0; i < 24; i++) { // it stops; its last report keeps coming with the others'
            now.addAndGet(250);
            model.received(Resource.FLOWS, List.of(flow("behind", last)), now.get());
        }
        assertTrue(stale("behind"), "no report for 7 s");
    }
}
