package org.gridstat.gateway.c37118.frame;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class FracSecTest {
    @Test
    void zeroFractionIsTheTopOfTheSecond() {
        int f = FracSec.of(0, 0);
        assertEquals(0, FracSec.fraction(f));
        assertEquals(0, FracSec.nanos(f, 1_000_000));
    }

    @Test
    void leapBitsAndQualityCodeAreIndependent() {
        int q = FracSec.qualityByte(true, false, false, 0);
        assertEquals(0x40, q);
        assertEquals(0x20, FracSec.qualityByte(false, true, false, 0));
        assertEquals(0x10, FracSec.qualityByte(false, false, true, 0));
        int f = FracSec.of(FracSec.qualityByte(true, true, true, 15), 0xFFFFFF);
        assertTrue(FracSec.leapDelete(f));
        assertTrue(FracSec.leapOccurred(f));
        assertTrue(FracSec.leapPending(f));
        assertEquals(15, FracSec.qualityCode(f));
        assertEquals(0xFFFFFF, FracSec.fraction(f));
        assertEquals(0x7F, FracSec.timeQuality(f));
    }

    @Test
    void fullTwentyFourBitTimeBase() {
        int timeBase = 0xFFFFFF;
        assertEquals(0xFFFFFF, TimeBase.subdivision(timeBase));
        // 0x800000 counts of 1/16,777,215 s: 500,000,029.8 ns, truncated
        assertEquals(500_000_029L, FracSec.nanos(FracSec.of(0, 0x800000), timeBase));
        assertEquals(999_999_940L, FracSec.nanos(FracSec.of(0, 0xFFFFFE), timeBase));
    }

    @Test
    void timeBaseFlagsAreNotPartOfTheSubdivision() {
        int timeBase = 0x8F00_0000 | 1_000_000;
        assertEquals(1_000_000, TimeBase.subdivision(timeBase));
        assertEquals(0x8F, TimeBase.flags(timeBase));
        assertEquals(16_817_000L, FracSec.nanos(FracSec.of(0, 16_817), timeBase));
    }

    @Test
    void microsecondTimeBase() {
        assertEquals(999_999_000L, FracSec.nanos(FracSec.of(0x0F, 999_999), 1_000_000));
    }
}
