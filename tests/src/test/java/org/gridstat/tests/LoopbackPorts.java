package org.gridstat.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.gridstat.node.FreeUdpPorts;

/** Free loopback UDP ports for test nodes, and a check that nothing listens on one any more. */
final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** A port below the ephemeral range that is free now. */
    static int free() throws IOException {
        return FreeUdpPorts.pick();
    }

    /** Whether the kernel's UDP table (IPv4 and IPv6) holds a socket bound to {@code port}. */
    static boolean anySocketOn(int port) throws IOException {
        String hex = String.format(Locale.ROOT, ":%04X ", port);
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            Path p = Path.of(table);
            if (Files.exists(p)) {
                for (String line : Files.readAllLines(p)) {
                    String[] cols = line.trim().split("\\s+");
                    if (cols.length > 1 && (cols[1] + " ").endsWith(hex)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
