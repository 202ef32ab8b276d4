package org.gridstat.sim.net;

import java.nio.ByteBuffer;
import java.util.function.IntConsumer;
import org.gridstat.core.egress.Transmitter;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.wire.BatchHeaderWriter;
import org.gridstat.core.wire.WireFormat;

/**
 * A simulated router's out-link as its {@code EgressPump} sees it: the pump decides which events
 * share a datagram and when; this lays each datagram out as the router's UDP transmitter does (a
 * lone frame as it is, several behind a batch header) and hands it to the {@link SimLink}. Under the
 * router's scheduler the link's packet queue stands for the socket and NIC: when it has no room for
 * another datagram the transmitter is not writable, and the router is told when it drains.
 *
 * <p>The router's pump charges each datagram's frames, framing and one IP and UDP header to the
 * link's shaper; a datagram larger than the link's MTU also carries an IP header per further
 * fragment, and the line may frame each packet (ATM cells), both charged here as it is sent, so the
 * router paces to what the wire carries: at its
 * capacity, not above it, which would fill the packet queue and let its FIFO, not EDF, decide who
 * waits.
 */
final class SimTransmitter implements Transmitter<SimPacket> {
    private final SimLink link;
    private final int datagramBytes;
    private final EventReferences<SimPacket> references;
    private final boolean paced;
    private final IntConsumer chargeHeaders;
    private final BatchHeaderWriter header = new BatchHeaderWriter();
    private final SimPacket[] open = new SimPacket[WireFormat.MAX_BATCH_EVENTS];
    private final int[] lengths = new int[WireFormat.MAX_BATCH_EVENTS];
    private int count;
    private int bytes;

    /**
     * @param datagramBytes the largest datagram the router's pump packs (its out-link's MTU setting)
     * @param chargeHeaders charges bytes the wire carries beyond the datagram's UDP payload to the
     *                      link's shaper, now
     */
    SimTransmitter(SimLink link, int datagramBytes, EventReferences<SimPacket> references, IntConsumer chargeHeaders) {
        this.link = link;
        this.chargeHeaders = chargeHeaders;
        this.datagramBytes = datagramBytes;
        this.references = references;
        this.paced = link.model().discipline() == LinkModel.Discipline.SCHEDULER;
    }

    @Override
    public boolean writable() {
        return !paced || link.hasRoom(datagramBytes);
    }

    @Override
    public void write(SimPacket event) {
        if (count == open.length) {
            endDatagram();
        }
        open[count] = event;
        lengths[count++] = event.length;
        bytes += event.length;
    }

    @Override
    public void endDatagram() {
        if (count == 0) {
            return;
        }
        SimDatagram d;
        if (count == 1 && open[0].opaque()) {
            d = new SimDatagram(null, open[0].length, open[0], 1);
        } else if (count == 1) {
            byte[] b = new byte[open[0].length];
            open[0].frame.get(0, b, 0, b.length);
            d = new SimDatagram(b, b.length, null, 1);
        } else {
            int headerLength = BatchHeaderWriter.headerLength(count);
            byte[] b = new byte[headerLength + bytes];
            ByteBuffer buffer = ByteBuffer.wrap(b);
            header.write(buffer, 0, lengths, count);
            int at = headerLength;
            for (int i = 0; i < count; i++) {
                if (open[i].opaque()) {
                    throw new IllegalStateException("an opaque datagram was packed with other events");
                }
                open[i].frame.get(0, b, at, open[i].length);
                at += open[i].length;
            }
            d = new SimDatagram(b, b.length, null, count);
        }
        for (int i = 0; i < count; i++) {
            references.release(open[i]);
            open[i] = null;
        }
        count = 0;
        bytes = 0;
        int extra = lineBytesBeyondCharged(d.length, link.model());
        if (extra > 0) {
            chargeHeaders.accept(extra);
        }
        link.send(d);
    }

    /**
     * What the line carries for a datagram beyond the payload and the one IP and UDP header the pump
     * charged ({@link WireFormat#DATAGRAM_OVERHEAD}): an IP header for each further fragment, and the
     * line's framing of every packet (as {@code tc}'s {@code linklayer atm} tells HTB).
     */
    static int lineBytesBeyondCharged(int udpPayload, LinkModel model) {
        int fragments = SimDatagram.packets(udpPayload, model.mtu());
        int line = 0;
        for (int i = 0; i < fragments; i++) {
            line += model.framing().lineBytes(SimDatagram.packetBytes(udpPayload, model.mtu(), i, fragments));
        }
        return line - udpPayload - WireFormat.DATAGRAM_OVERHEAD;
    }

    @Override
    public void flush() {
        endDatagram();
    }

    /** Gives back the events of a datagram not yet ended (the router crashed). */
    void discard() {
        for (int i = 0; i < count; i++) {
            references.release(open[i]);
            open[i] = null;
        }
        count = 0;
        bytes = 0;
    }
}
