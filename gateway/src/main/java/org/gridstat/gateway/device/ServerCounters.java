package org.gridstat.gateway.device;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A snapshot of what a {@link PmuServer} has done since it started. Frames "sent" were handed to
 * the connection or socket; "dropped" were not, because a client's queue was full.
 *
 * @param connectionsAccepted TCP connections taken on
 * @param connectionsRefused TCP connections closed at once and UDP peers not registered: the
 *        server already had {@code maxClients}
 * @param connectionsClosed TCP connections that ended, by either side
 * @param connectionsClosedForGarbage TCP connections closed for sending too many bytes without a frame
 * @param udpPeersRegistered UDP peers registered by a command
 * @param udpPeersForgotten UDP peers not heard from within the idle timeout
 * @param tcpClients TCP connections open now
 * @param udpPeers UDP peers registered now
 * @param dataOff DATA_OFF commands obeyed
 * @param dataOn DATA_ON commands obeyed
 * @param sendHeader SEND_HEADER commands answered
 * @param sendConfig1 SEND_CONFIG_1 commands answered
 * @param sendConfig2 SEND_CONFIG_2 commands answered
 * @param sendConfig3 SEND_CONFIG_3 commands answered
 * @param extendedFrames EXTENDED_FRAME commands, ignored
 * @param unknownCommands commands with a code the server does not know, ignored
 * @param commandsRefusedBadFrame damaged frames (bad CRC, length, a command without CMD) and UDP
 *        datagrams that are not a command frame
 * @param commandsRefusedWrongIdCode commands naming another stream
 * @param framesIgnored valid frames that are not commands (a client sending data, say)
 * @param bytesSkipped TCP bytes that were not part of any frame
 * @param dataFramesOffered data frames given to {@link PmuServer#send}
 * @param dataFramesSent copies of data frames sent, summed over the destinations
 * @param dataFramesDropped copies not sent because the destination's queue was full
 * @param configFramesSent CFG-1, CFG-2 and CFG-3 frames sent (each CFG-3 fragment counts), asked or spontaneous
 * @param headerFramesSent header frames sent
 * @param answersDropped answers not sent because the queue was full: a TCP client asking without
 *        reading, or the UDP socket's queue
 * @param clients one entry per connected client and registered peer
 */
public record ServerCounters(
        long connectionsAccepted,
        long connectionsRefused,
        long connectionsClosed,
        long connectionsClosedForGarbage,
        long udpPeersRegistered,
        long udpPeersForgotten,
        int tcpClients,
        int udpPeers,
        long dataOff,
        long dataOn,
        long sendHeader,
        long sendConfig1,
        long sendConfig2,
        long sendConfig3,
        long extendedFrames,
        long unknownCommands,
        long commandsRefusedBadFrame,
        long commandsRefusedWrongIdCode,
        long framesIgnored,
        long bytesSkipped,
        long dataFramesOffered,
        long dataFramesSent,
        long dataFramesDropped,
        long configFramesSent,
        long headerFramesSent,
        long answersDropped,
        List<ClientCounters> clients) {

    public ServerCounters {
        clients = List.copyOf(clients);
    }

    /**
     * One client's share.
     *
     * @param peer the remote address
     * @param transport "tcp" or "udp"
     * @param dataOn whether it asked for data
     * @param dataFramesSent data frames handed to its connection (or, for UDP, the socket)
     * @param dataFramesDropped data frames not sent to it because its queue was full
     * @param pendingBytes bytes queued for it and not yet written to the socket (TCP)
     * @param pendingBytesPeak the most ever queued for it at once (TCP)
     */
    public record ClientCounters(InetSocketAddress peer, String transport, boolean dataOn, long dataFramesSent,
                                 long dataFramesDropped, long pendingBytes, long pendingBytesPeak) {
    }

    /** The entry for the client at this remote address, or null. */
    public ClientCounters client(InetSocketAddress peer) {
        return clients.stream().filter(c -> c.peer().equals(peer)).findFirst().orElse(null);
    }
}
