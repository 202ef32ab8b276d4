package org.gridstat.node.bench;

import java.lang.management.ManagementFactory;

/** Bytes allocated so far by the live threads whose names start with a prefix (HotSpot's per-thread counter). */
final class ThreadAllocation {
    private ThreadAllocation() {
    }

    static long bytes(String threadNamePrefix) {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!(mx instanceof com.sun.management.ThreadMXBean)) {
            return -1;
        }
        com.sun.management.ThreadMXBean hotspot = (com.sun.management.ThreadMXBean) mx;
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(threadNamePrefix)) {
                sum += hotspot.getThreadAllocatedBytes(t.getId());
            }
        }
        return sum;
    }
}
