package org.gridstat.core.time;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SaturatingTest {
    @Test
    void instantsClampAtTheEndsInsteadOfWrapping() {
        assertEquals(Long.MAX_VALUE, Saturating.add(Long.MAX_VALUE - 1, 5));
        assertEquals(Long.MIN_VALUE, Saturating.add(Long.MIN_VALUE + 1, -5));
        assertEquals(Long.MIN_VALUE, Saturating.subtract(Long.MIN_VALUE + 1, 50_000_000L), "a deadline less a budget stays past");
        assertEquals(Long.MAX_VALUE, Saturating.subtract(Long.MAX_VALUE, -1));
        assertEquals(7, Saturating.add(3, 4));
    }

    @Test
    void configuredMillisecondsBecomeNanosecondsWithoutWrapping() {
        assertEquals(2_000_000_000L, Saturating.millisToNanos(2_000));
        assertEquals(Long.MAX_VALUE, Saturating.millisToNanos(Long.MAX_VALUE), "'trust everything' stays everything");
        assertEquals(Long.MAX_VALUE, Saturating.millisToNanos(Long.MAX_VALUE / 1_000_000L + 1));
        assertEquals(Long.MIN_VALUE, Saturating.millisToNanos(Long.MIN_VALUE));
        assertEquals(-5_000_000L, Saturating.millisToNanos(-5), "negative stays negative, for the validation to refuse");
    }
}
