package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.broker.control.AlarmLog.Alarm;
import org.gridstat.broker.control.AlarmLog.Category;
import org.gridstat.broker.control.AlarmLog.Kind;
import org.junit.jupiter.api.Test;

/** The alarm log on a manual clock (ms since 1970). */
class AlarmLogTest {
    private final AtomicLong now = new AtomicLong(1_000_000);

    private AlarmLog log(int capacity) {
        return new AlarmLog(capacity, 10, 20, now::get);
    }

    @Test
    void alarmsAboutOneSubjectFoldIntoOneWhateverTheirFiguresAndKeepTheLatestMessage() {
        AlarmLog log = log(10);
        for (int i = 0; i < 30; i++) {
            log.raise("r2", Kind.CONGESTION_UNMET, "flow 12", "flow 12 needs " + (100 + i) + " B/s more");
            now.addAndGet(1_000);
        }
        log.raise("r2", Kind.CONGESTION_UNMET, "flow 13", "flow 13 needs 5 B/s more");
        List<Alarm> kept = log.recent(Category.DECISION);
        assertEquals(2, kept.size(), "one per flow, not one per figure");
        assertEquals(new Alarm("r2", Kind.CONGESTION_UNMET, "flow 12", "flow 12 needs 129 B/s more", 30, 1_000_000, 1_029_000),
                kept.get(0));
        assertEquals("flow 13", kept.get(1).subject());
    }

    @Test
    void aRepeatedAlarmIsFoldedWithItsCountAndFirstAndLastSeen() {
        AlarmLog log = log(10);
        log.raise("r2", Kind.INSTALL_REFUSED, "router r2 has no out-link 'ccx'");
        now.addAndGet(5_000);
        log.raise("r3", Kind.INSTALL_REFUSED, "router r3 has no out-link 'ccx'");
        now.addAndGet(5_000);
        log.raise("r2", Kind.INSTALL_REFUSED, "router r2 has no out-link 'ccx'");

        List<Alarm> kept = log.recent(Category.DECISION);
        assertEquals(List.of(
                new Alarm("r3", Kind.INSTALL_REFUSED, "router r3 has no out-link 'ccx'", "router r3 has no out-link 'ccx'", 1,
                        1_005_000, 1_005_000),
                new Alarm("r2", Kind.INSTALL_REFUSED, "router r2 has no out-link 'ccx'", "router r2 has no out-link 'ccx'", 2,
                        1_000_000, 1_010_000)), kept,
                "folded, least recently seen first");
        assertEquals(Category.DECISION, kept.get(0).category());
        assertEquals(AlarmLog.Severity.CRITICAL, kept.get(0).severity());
        log.raise("r2", Kind.SESSION_LOST, "router r2 has no out-link 'ccx'");
        assertEquals(3, log.recent().size(), "another kind is another alarm");
    }

    @Test
    void noiseIsRateLimitedByAManualClock() {
        AlarmLog log = log(1000);
        int recorded = 0;
        for (int i = 0; i < 100; i++) {
            recorded += log.raise("10.0.0.9", Kind.MALFORMED_FRAME, "frame " + i) ? 1 : 0;
        }
        assertEquals(20, recorded, "the burst");
        assertEquals(80, log.noiseSuppressed());
        now.addAndGet(1_000);
        recorded = 0;
        for (int i = 0; i < 100; i++) {
            recorded += log.raise("10.0.0.9", Kind.MALFORMED_FRAME, "again " + i) ? 1 : 0;
        }
        assertEquals(10, recorded, "one second refills ten");
        now.addAndGet(3_600_000);
        assertTrue(log.raise("10.0.0.9", Kind.PEER_ERROR, "x"));
        assertEquals(31, log.recent(Category.NOISE).size());
        assertTrue(log.raise("r1", Kind.INSTALL_REFUSED, "decisions are never rate-limited"));
        for (int i = 0; i < 100; i++) {
            assertTrue(log.raise("r1", Kind.INSTALL_REFUSED, "refusal " + i));
        }
    }

    @Test
    void noiseNeverEvictsADecisionAndEachListStaysBounded() {
        AlarmLog log = log(5);
        for (int i = 0; i < 5; i++) {
            log.raise("r" + i, Kind.INSTALL_REFUSED, "refused " + i);
        }
        for (int second = 0; second < 1_000; second++) {
            now.addAndGet(1_000);
            for (int i = 0; i < 50; i++) {
                log.raise("203.0.113." + i, Kind.PEER_ERROR, "java.io.IOException: " + second + "/" + i);
            }
        }
        assertEquals(5, log.recent(Category.DECISION).size());
        assertEquals("refused 0", log.recent(Category.DECISION).get(0).message());
        assertEquals(5, log.recent(Category.NOISE).size());
        assertEquals(10 * 999 + 20 - 5, log.dropped(Category.NOISE));
        assertEquals(0, log.dropped(Category.DECISION));

        log.raise("r9", Kind.INSTALL_REFUSED, "refused 9");
        assertEquals(1, log.dropped(Category.DECISION), "a decision goes only for a newer decision");
        assertEquals("refused 1", log.recent(Category.DECISION).get(0).message());
    }

    @Test
    void networkTextsAreCleanedAndBounded() {
        AlarmLog log = log(3);
        String attack = "line\nbreak\u001b[31mred\u202Eevil" + "A".repeat(10_000);
        log.raise("x".repeat(500), Kind.PEER_ERROR, attack);
        Alarm a = log.recent(Category.NOISE).get(0);
        assertEquals(AlarmLog.MAX_MESSAGE, a.message().length());
        assertTrue(a.message().startsWith("line?break?[31mred?evilAAA"), a.message());
        assertTrue(a.message().endsWith("A..."), a.message());
        assertEquals(AlarmLog.MAX_SOURCE, a.source().length());
        assertEquals("short text stays", AlarmLog.clean("short text stays", 240));
        assertEquals("😀".repeat(2), AlarmLog.clean("😀".repeat(2), 240), "a pair of surrogates is one character, kept");
        assertEquals("a...", AlarmLog.clean("a😀😀😀", 5), "a cut never splits a pair");
    }

    /**
     * A wall clock stepped back (NTP, an operator) must not silence noise until the clock catches
     * up with the bucket's last refill.
     */
    @Test
    void noiseIsRecordedAgainSoonAfterTheWallClockIsSteppedBack() {
        AlarmLog log = log(100);
        for (int i = 0; i < 20; i++) {
            assertTrue(log.raise("10.0.0." + i, Kind.MALFORMED_FRAME, "x"));
        }
        assertFalse(log.raise("10.0.0.99", Kind.MALFORMED_FRAME, "x"), "the burst is spent");
        now.addAndGet(-3_600_000); // the clock is stepped back an hour
        now.addAndGet(10_000); // ten seconds pass
        assertTrue(log.raise("10.0.0.100", Kind.MALFORMED_FRAME, "x"),
                "ten seconds after the step, noise is still suppressed (and would be for an hour)");
    }
}
