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

    public static int pick() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), candidate))) {
                return candidate;
            } catch (SocketException busy) {
                // taken: try another
            }
        }
        throw new IOException("no free UDP port found in " + LOW + "-" + HIGH);
    }
}
