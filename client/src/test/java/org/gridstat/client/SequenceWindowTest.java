package org.gridstat.client;

import static org.gridstat.client.SequenceWindow.Verdict.*;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SequenceWindowTest {
    @Test
    void deliversEachSequenceOnceAndCountsTheGaps() {
        SequenceWindow w = new SequenceWindow();
        assertEquals(NEW, w.accept(0, 0));
        assertEquals(DUPLICATE, w.accept(0, 0), "the copy from the second path");
        assertEquals(NEW, w.accept(1, 1));
        assertEquals(NEW, w.accept(4, 4));
        assertEquals(2, w.gaps(), "2 and 3 missing");
        assertEquals(LATE_FILL, w.accept(3, 3), "3 arrives late on the slower path");
        assertEquals(1, w.gaps());
        assertEquals(DUPLICATE, w.accept(3, 3));
        assertEquals(DUPLICATE, w.accept(4, 4));
        assertEquals(1, w.gaps());
    }

    @Test
    void aCopyOlderThanTheWindowIsTooLateAndARestartStartsOver() {
        SequenceWindow w = new SequenceWindow();
        for (long s = 0; s < 5000; s++) {
            assertEquals(NEW, w.accept(s, s));
        }
        assertEquals(TOO_LATE, w.accept(5000 - SequenceWindow.SIZE - 1, 10), "older than the window, older source time");
        assertEquals(DUPLICATE, w.accept(4999 - 5, 4994), "inside the window and seen");
        assertEquals(NEW, w.accept(0, 100_000), "sequence restarted with a newer source time: a restarted publisher");
        assertEquals(NEW, w.accept(1, 100_001));
        assertEquals(DUPLICATE, w.accept(1, 100_001));
        assertEquals(0, w.gaps());
        // A restart from 0 while the old numbers are still in the window: the source time tells.
        assertEquals(NEW, w.accept(0, 200_000), "restarted again, right away");
        assertEquals(NEW, w.accept(1, 200_001));
        assertEquals(DUPLICATE, w.accept(0, 200_000));
    }

    @Test
    void aLongJumpForgetsTheOldWindow() {
        SequenceWindow w = new SequenceWindow();
        w.accept(10, 10);
        w.accept(10 + 3 * SequenceWindow.SIZE, 20);
        assertEquals(3 * SequenceWindow.SIZE - 1, w.gaps());
        assertEquals(LATE_FILL, w.accept(10 + 3 * SequenceWindow.SIZE - 1, 19), "not mistaken for a duplicate by aliasing");
    }
}
