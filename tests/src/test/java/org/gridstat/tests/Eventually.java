package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

/** Waits for a condition that the system under test reaches on its own threads. */
final class Eventually {
    private Eventually() {
    }

    /** Polls {@code condition} for up to {@code seconds}, then asserts it, naming {@code what}. */
    static void await(BooleanSupplier condition, String what, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(condition.getAsBoolean(), what);
    }
}
