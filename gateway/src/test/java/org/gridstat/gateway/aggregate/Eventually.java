package org.gridstat.gateway.aggregate;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for the server's threads to catch up; a generous bound, never a timing assertion. */
final class Eventually {
    private Eventually() {
    }

    static void until(String what, BooleanSupplier done) {
        until(what, done, () -> "");
    }

    static void until(String what, BooleanSupplier done, Supplier<Object> state) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 20 s: " + what + " " + state.get());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
