package org.gridstat.tests;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback UDP ports for test nodes, and a check that nothing listens on one any more. */
final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** A port below the ephemeral range that is free now. */
    static int free() throws IOException {
        for (int i = 0; i < 200; i++) {
            int p = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), p))) {
                return p;
            } catch (SocketException busy) {
                // next
            }
        }
        throw new IOException("no free UDP port in 20000-32000");
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
