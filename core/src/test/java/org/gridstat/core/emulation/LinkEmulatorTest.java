package org.gridstat.core.emulation;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class LinkEmulatorTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    @Test
    void aPlainLinkDelaysEveryPacketByItsPropagationDelay() {
        LinkEmulator e = new LinkEmulator(5 * MS, 0, 0, 0, 1, 0);
        for (long t = 0; t < S; t += MS) {
            assertEquals(t + 5 * MS, e.transmit(t));
        }
        assertEquals(0, e.lostToOmission() + e.lostToOutage());
    }

    @Test
    void omissionLossFollowsItsProbabilityAndRepeatsForASeed() {
        LinkEmulator a = new LinkEmulator(0, 0.1, 0, 0, 42, 0);
        LinkEmulator b = new LinkEmulator(0, 0.1, 0, 0, 42, 0);
        int lost = 0;
        for (int i = 0; i < 100_000; i++) {
            long fa = a.transmit(i);
            assertEquals(fa, b.transmit(i), "same seed, same fate");
            if (fa == LinkEmulator.LOST) {
                lost++;
            }
        }
        assertEquals(10_000, lost, 400, "about 10 % lost");
        assertEquals(lost, a.lostToOmission());
    }

    @Test
    void outagesComeAtPoissonTimesAndLastTheirDuration() {
        // Mean 1 s between outages of 100 ms, over 1000 s of 1 ms packets.
        LinkEmulator e = new LinkEmulator(0, 0, S, 100 * MS, 7, 0);
        long downMs = 0;
        int transitions = 0;
        boolean wasDown = false;
        long runStart = 0;
        for (long t = 0; t < 1000 * S; t += MS) {
            boolean down = e.transmit(t) == LinkEmulator.LOST;
            if (down) {
                downMs++;
            }
            if (down && !wasDown) {
                transitions++;
                runStart = t;
            }
            if (!down && wasDown) {
                assertEquals(100 * MS, t - runStart, "an outage lasts its duration (to the packet)");
            }
            wasDown = down;
        }
        // Cycle = 1 s up on average + 0.1 s down: ~909 outages, ~9.1 % of the time down.
        assertEquals(909, transitions, 90);
        assertEquals(0.0909, downMs / 1_000_000.0, 0.01);
        assertEquals(downMs, e.lostToOutage());
    }
}
