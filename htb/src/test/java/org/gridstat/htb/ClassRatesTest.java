package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClassRatesTest {
    @Test
    void aQuantumOfZeroIsDerivedFromTheRateWithinBounds() {
        assertEquals(20_000, new ClassRates(200_000, 200_000, 1_600, 1_600, 0, 0).quantumBytes());
        assertEquals(ClassRates.MIN_DERIVED_QUANTUM, new ClassRates(1_000, 1_000, 1_600, 1_600, 0, 0).quantumBytes());
        assertEquals(ClassRates.MAX_DERIVED_QUANTUM,
                new ClassRates(5_000_000_000L, 5_000_000_000L, 1_600, 1_600, 0, 0).quantumBytes());
        assertEquals(3_000, new ClassRates(200_000, 200_000, 1_600, 1_600, 0, 3_000).quantumBytes());
    }

    @Test
    void eachInvalidComponentIsNamed() {
        assertNamed("rateBytesPerSecond", () -> new ClassRates(0, 1_000, 1_600, 1_600, 0, 0));
        assertNamed("rateBytesPerSecond", () -> new ClassRates(-1, 1_000, 1_600, 1_600, 0, 0));
        assertNamed("ceilBytesPerSecond", () -> new ClassRates(2_000, 1_000, 1_600, 1_600, 0, 0));
        assertNamed("burstBytes", () -> new ClassRates(1_000, 1_000, 0, 1_600, 0, 0));
        assertNamed("cburstBytes", () -> new ClassRates(1_000, 1_000, 1_600, -5, 0, 0));
        assertNamed("prio", () -> new ClassRates(1_000, 1_000, 1_600, 1_600, 8, 0));
        assertNamed("prio", () -> new ClassRates(1_000, 1_000, 1_600, 1_600, -1, 0));
        assertNamed("quantumBytes", () -> new ClassRates(1_000, 1_000, 1_600, 1_600, 0, -1));
    }

    @Test
    void theCeilMayEqualTheRate() {
        assertEquals(1_000, new ClassRates(1_000, 1_000, 1, 1, 7, 0).ceilBytesPerSecond());
    }

    private static void assertNamed(String component, Runnable construction) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construction::run);
        assertTrue(e.getMessage().startsWith(component + " "), e.getMessage());
    }
}
