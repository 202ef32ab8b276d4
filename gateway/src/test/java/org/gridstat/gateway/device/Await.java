package org.gridstat.gateway.device;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits, with a deadline, for what must happen. */
final class Await {
    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, condition, () -> "");
    }

    static void until(String what, BooleanSupplier condition, Supplier<Object> state) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what + " " + state.get());
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + what);
            }
        }
    }
}
