package org.gridstat.node.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/** Garbage collections of this JVM and their accumulated time, as the collectors' beans count them. */
record GcPauses(long count, long millis) {
    static GcPauses now() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new GcPauses(count, millis);
    }

    GcPauses since(GcPauses earlier) {
        return new GcPauses(count - earlier.count, millis - earlier.millis);
    }
}
