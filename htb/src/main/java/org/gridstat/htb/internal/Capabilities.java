package org.gridstat.htb.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's effective capabilities, from /proc/self/status. */
public final class Capabilities {
    public static final int CAP_NET_ADMIN = 12;
    public static final int CAP_SYS_ADMIN = 21;

    private Capabilities() {
    }

    /** Whether the capability is effective; false where /proc cannot tell. */
    public static boolean effective(int capability) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    long mask = Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16);
                    return (mask >>> capability & 1) != 0;
                }
            }
        } catch (IOException | NumberFormatException | SecurityException unreadable) {
            // not Linux, or /proc hidden
        }
        return false;
    }
}
