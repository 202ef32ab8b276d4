package org.gridstat.htb;

import org.gridstat.htb.internal.TrafficControl;

/**
 * Whether the kernel has HTB, found by creating an htb qdisc on the loopback device of a private
 * network namespace that dies with the probe. A yes is kept for the JVM's life; a no is asked again
 * (a module may be loaded meanwhile).
 */
final class HtbProbe {
    private static final int ENOENT = 2;
    private static final int EOPNOTSUPP = 95;

    private static boolean htbWorks;

    private HtbProbe() {
    }

    /** Null if HTB works or nothing is known, else why not. */
    static synchronized String whyNot() {
        if (htbWorks) {
            return null;
        }
        int outcome = TrafficControl.probeHtb();
        if (outcome == 0) {
            htbWorks = true;
            return null;
        }
        if (outcome < 0) {
            return null; // no private namespace to try in (no CAP_SYS_ADMIN): createRoot will tell
        }
        if (outcome == ENOENT || outcome == EOPNOTSUPP) {
            return "the kernel has no HTB (sch_htb)";
        }
        return "the kernel refused an htb qdisc: " + TrafficControl.strerror(outcome) + " (errno " + outcome + ")";
    }
}
