package org.gridstat.node;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free loopback UDP ports for demos and tests. Ports come from below the kernel's ephemeral
 * range (32768-60999), so no client socket is handed the port between the pick and its bind.
 */
public final class FreeUdpPorts {
    private static final int LOW = 20_000;
    private static final int HIGH = 32_000;

    private FreeUdpPorts() {
    }

    /**
     * Ports handed out lately: a port is free when picked but bound only later, so two picks in one
     * run must not return the same one. Bounded: forgotten in bulk past 4,096.
     */
    private static final java.util.Set<Integer> RECENT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public static int pick() throws IOException {
        if (RECENT.size() > 4_096) {
            RECENT.clear();
        }
        for (int attempt = 0; attempt < 200; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            if (!RECENT.add(candidate)) {
                continue; // handed out already, maybe not bound yet
            }
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), candidate))) {
                return candidate;
            } catch (SocketException busy) {
                // taken: try another
            }
        }
        throw new IOException("no free UDP port found in " + LOW + "-" + HIGH);
    }
}
