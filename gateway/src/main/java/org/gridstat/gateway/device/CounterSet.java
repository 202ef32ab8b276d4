package org.gridstat.gateway.device;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The server's counters while it runs: updated from the I/O thread and from senders' threads. */
final class CounterSet {
    final LongAdder connectionsAccepted = new LongAdder();
    final LongAdder connectionsRefused = new LongAdder();
    final LongAdder connectionsClosed = new LongAdder();
    final LongAdder connectionsClosedForGarbage = new LongAdder();
    final LongAdder udpPeersRegistered = new LongAdder();
    final LongAdder udpPeersForgotten = new LongAdder();
    final LongAdder dataOff = new LongAdder();
    final LongAdder dataOn = new LongAdder();
    final LongAdder sendHeader = new LongAdder();
    final LongAdder sendConfig1 = new LongAdder();
    final LongAdder sendConfig2 = new LongAdder();
    final LongAdder sendConfig3 = new LongAdder();
    final LongAdder extendedFrames = new LongAdder();
    final LongAdder unknownCommands = new LongAdder();
    final LongAdder refusedBadFrame = new LongAdder();
    final LongAdder refusedWrongIdCode = new LongAdder();
    final LongAdder framesIgnored = new LongAdder();
    final LongAdder bytesSkipped = new LongAdder();
    final LongAdder dataFramesOffered = new LongAdder();
    final LongAdder dataFramesSent = new LongAdder();
    final LongAdder dataFramesDropped = new LongAdder();
    final LongAdder configFramesSent = new LongAdder();
    final LongAdder headerFramesSent = new LongAdder();
    final LongAdder answersDropped = new LongAdder();

    ServerCounters snapshot(int tcpClients, int udpPeers, List<ServerCounters.ClientCounters> clients) {
        return new ServerCounters(connectionsAccepted.sum(), connectionsRefused.sum(), connectionsClosed.sum(),
                connectionsClosedForGarbage.sum(), udpPeersRegistered.sum(), udpPeersForgotten.sum(), tcpClients, udpPeers,
                dataOff.sum(), dataOn.sum(), sendHeader.sum(), sendConfig1.sum(), sendConfig2.sum(), sendConfig3.sum(),
                extendedFrames.sum(), unknownCommands.sum(), refusedBadFrame.sum(), refusedWrongIdCode.sum(),
                framesIgnored.sum(), bytesSkipped.sum(), dataFramesOffered.sum(), dataFramesSent.sum(),
                dataFramesDropped.sum(), configFramesSent.sum(), headerFramesSent.sum(), answersDropped.sum(), clients);
    }
}
