package org.gridstat.gateway.device;

import java.util.concurrent.atomic.AtomicInteger;

/** The server's client limit, shared by TCP connections and UDP peers. */
final class ClientSlots {
    private final AtomicInteger used = new AtomicInteger();
    private final int max;

    ClientSlots(int max) {
        this.max = max;
    }

    /** Takes a slot; false when all are taken. */
    boolean take() {
        while (true) {
            int n = used.get();
            if (n >= max) {
                return false;
            }
            if (used.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void give() {
        used.decrementAndGet();
    }
}
