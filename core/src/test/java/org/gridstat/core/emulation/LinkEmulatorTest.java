package org.gridstat.core.emulation;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Random;
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

    @Test
    void backToBackPacketsLeaveSpacedByTheirTransmissionTime() {
        // 10 Mbit/s: 1,250 bytes take 1 ms.
        LinkEmulator e = new LinkEmulator(1_250_000, LinkEmulator.UNBOUNDED, 5 * MS, 0, 0, 0, 1, 0);
        for (int i = 1; i <= 10; i++) {
            assertEquals(i * MS + 5 * MS, e.transmit(0, 1_250), "packet " + i + " of a burst");
        }
        assertEquals(10_000, e.backlogBytes(2 * MS), "eight packets wait at 2 ms");
        assertEquals(56 * MS, e.transmit(50 * MS, 1_250), "an idle wire sends at once");
        assertEquals(57 * MS, e.transmit(50 * MS + MS / 2, 1_250), "behind the one still on the wire");
        assertEquals(57 * MS + 100_000, e.transmit(51 * MS, 125));
        assertEquals(57 * MS + 100_000, e.transmit(51 * MS, 0), "no bytes take no time");
    }

    @Test
    void transmissionTimesThatAreNotWholeNanosecondsDoNotDrift() {
        // 3,000,000 B/s: 1,000 bytes take 333,333⅓ ns.
        LinkEmulator e = new LinkEmulator(3_000_000, LinkEmulator.UNBOUNDED, 0, 0, 0, 0, 1, 0);
        for (long i = 1; i <= 3_000; i++) {
            assertEquals(i * S / 3_000, e.transmit(0, 1_000), "packet " + i);
        }
        assertEquals(0, e.backlogBytes(S));
    }

    @Test
    void aBurstBeyondTheQueueLosesExactlyWhatDoesNotFit() {
        // 10 Mbit/s behind 10,000 bytes of queue: eight 1,250-byte packets.
        LinkEmulator e = new LinkEmulator(1_250_000, 10_000, 0, 0, 0, 0, 1, 0);
        int delivered = 0;
        for (int i = 0; i < 20; i++) {
            long arrival = e.transmit(0, 1_250);
            if (arrival != LinkEmulator.LOST) {
                delivered++;
                assertEquals(delivered * MS, arrival);
            }
        }
        assertEquals(8, delivered);
        assertEquals(12, e.lostToQueue());
        assertEquals(10_000, e.backlogBytes(0));
        // Half a packet later, 625 bytes have left: room for 625 more, not for 1,250.
        assertEquals(LinkEmulator.LOST, e.transmit(MS / 2, 1_250));
        assertEquals(8 * MS + MS / 2, e.transmit(MS / 2, 625));
        assertEquals(LinkEmulator.LOST, e.transmit(MS / 2, 1));
        assertEquals(14, e.lostToQueue());
        assertEquals(LinkEmulator.LOST, e.transmit(S, 10_001), "larger than the queue: never fits");
        assertEquals(S + 8 * MS, e.transmit(S, 10_000));
        assertEquals(0, e.lostToOmission() + e.lostToOutage());
    }

    @Test
    void aJumpAcrossAMillionMeanGapsCostsOneDraw() {
        // Mean 1 ms between outages of 0.1 ms: walking 10^6 gaps drew ~909,000 outages (11 ms), and
        // an hour idle with 1 µs gaps 1.8·10^9 (15 s).
        LinkEmulator e = new LinkEmulator(0, 0, MS, 100_000, 3, 0);
        long before = e.outageDraws();
        e.isDown(1_000_000 * MS);
        assertEquals(1, e.outageDraws() - before);
        e.transmit(2_000_000 * MS);
        assertEquals(2, e.outageDraws() - before);
        LinkEmulator fast = new LinkEmulator(0, 0, 1_000, 1_000, 3, 0);
        fast.isDown(3_600 * S);
        assertEquals(2, fast.outageDraws(), "the first outage, then one restart");
    }

    @Test
    void theLinkIsDownItsShareOfTheTimeWhetherTimeWalksOrJumps() {
        // Down D / (M + D) = 0.1 / 1.1 of the time.
        long mean = MS;
        long duration = 100_000;
        long cycle = mean + duration;
        int probes = 100_000;
        for (long step : new long[] {3 * cycle, 1_000 * cycle, 1_000_003 * MS}) {
            LinkEmulator e = new LinkEmulator(0, 0, mean, duration, 5, 0);
            int down = 0;
            long t = 0;
            for (int i = 0; i < probes; i++) {
                t += step;
                if (e.isDown(t)) {
                    down++;
                }
            }
            // Probes cycles apart are nearly independent: the share's standard deviation is 0.0009.
            assertEquals(0.0909, (double) down / probes, 0.004, "probes " + step + " ns apart");
            if (step / cycle > OutageSchedule.WALK_LIMIT_CYCLES) {
                assertEquals(1 + probes, e.outageDraws(), "the first outage, then one restart per probe");
            } else {
                assertEquals(3.0, (double) e.outageDraws() / probes, 0.05, "walking: one outage per cycle");
            }
        }
    }

    @Test
    void aLinkIsTheSameLinkForTheSameSeed() {
        long[] fates = run(99, false);
        assertArrayEquals(fates, run(99, false), "same seed, same fates");
        assertArrayEquals(fates, run(99, true), "asking whether it is down changes nothing");
        assertFalse(java.util.Arrays.equals(fates, run(100, false)), "another seed, another link");
    }

    /** 20,000 packets of random sizes in bursts over a 1 Mbit/s link that loses in all three ways. */
    private static long[] run(long seed, boolean ask) {
        LinkEmulator e = new LinkEmulator(125_000, 3_000, 2 * MS, 0.05, 200 * MS, 20 * MS, seed, 0);
        Random traffic = new Random(1);
        long[] out = new long[20_003];
        long t = 0;
        for (int i = 0; i < 20_000; i++) {
            t += traffic.nextInt(4) == 0 ? traffic.nextInt(20 * (int) MS) : 0;
            if (ask) {
                e.isDown(t);
                e.backlogBytes(t);
            }
            out[i] = e.transmit(t, 60 + traffic.nextInt(1_400));
        }
        out[20_000] = e.lostToOutage();
        out[20_001] = e.lostToQueue();
        out[20_002] = e.lostToOmission();
        assertTrue(out[20_000] > 0 && out[20_001] > 0 && out[20_002] > 0, "each kind of loss occurs");
        return out;
    }
}
