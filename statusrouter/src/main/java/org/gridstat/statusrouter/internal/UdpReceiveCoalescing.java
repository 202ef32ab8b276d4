package org.gridstat.statusrouter.internal;

import io.netty.channel.unix.Socket;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns on UDP_GRO on a data-port socket: the kernel then hands over datagrams it coalesced (on
 * loopback, a segmented send arrives as one buffer) with their length, where without it the kernel
 * cuts them apart again for the socket. Only for a socket read with
 * {@link BatchedReceive#receiveCoalesced}, which takes that length: any other read would take a
 * coalesced buffer for one long datagram. Where the kernel or the transport cannot, says why once
 * and leaves the socket as it was.
 */
final class UdpReceiveCoalescing {
    private static final Logger LOG = LoggerFactory.getLogger(UdpReceiveCoalescing.class);
    static final int SOL_UDP = 17;
    static final int UDP_GRO = 104;
    private static volatile boolean said;

    private UdpReceiveCoalescing() {
    }

    /** Whether {@code socket} now has UDP_GRO on. */
    static boolean enable(Socket socket) {
        String why = BatchedReceive.coalescedUnavailable();
        if (why == null) {
            try {
                socket.setIntOpt(SOL_UDP, UDP_GRO, 1);
                return true;
            } catch (IOException e) {
                why = "the kernel refused UDP_GRO: " + e.getMessage();
            }
        }
        if (!said) {
            said = true;
            LOG.warn("data ports without receive coalescing (UDP_GRO), each datagram read on its own: {}", why);
        }
        return false;
    }
}
