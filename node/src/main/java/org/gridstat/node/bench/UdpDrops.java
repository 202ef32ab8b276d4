package org.gridstat.node.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Datagrams the kernel dropped at a UDP socket because its receive buffer was full, from the
 * {@code drops} column of {@code /proc/net/udp} and {@code udp6} (Netty's epoll sockets are IPv6
 * sockets bound to a mapped IPv4 address): losses that happen before the router reads, so its own
 * counters never see them.
 */
final class UdpDrops {
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6"));

    private UdpDrops() {
    }

    /** Drops at the sockets bound to {@code port} (summed), or -1 if the kernel does not tell. */
    static long at(int port) {
        long drops = -1;
        for (Path table : TABLES) {
            try {
                long d = parse(Files.readAllLines(table), port);
                drops = d < 0 ? drops : Math.max(drops, 0) + d;
            } catch (IOException | RuntimeException e) {
                // no such table (IPv6 disabled): the other may tell
            }
        }
        return drops;
    }

    static long parse(List<String> table, int port) {
        String suffix = ":" + String.format("%04X", port);
        long drops = -1;
        for (String line : table) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 13 || !f[0].endsWith(":") || !f[1].toUpperCase().endsWith(suffix)) {
                continue; // the header, or another socket
            }
            drops = Math.max(drops, 0) + Long.parseLong(f[f.length - 1]);
        }
        return drops;
    }
}
