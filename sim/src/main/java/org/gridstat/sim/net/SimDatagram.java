package org.gridstat.sim.net;

/**
 * One UDP datagram on one simulated link: the bytes a router's transmitter laid out (a lone frame,
 * or a batch written with core's {@code BatchHeaderWriter}), or one opaque datagram. The link
 * carries it as {@link #packets} IP packets (fragments when it is larger than the link's MTU); it
 * arrives only if every one of them does.
 */
public final class SimDatagram {
    /** IPv4 header bytes per packet. */
    public static final int IP_HEADER = 20;
    /** UDP header bytes per datagram. */
    public static final int UDP_HEADER = 8;

    /** The datagram's bytes, or {@code null} for an opaque one. */
    final byte[] bytes;
    /** UDP payload bytes. */
    final int length;
    /** The opaque datagram's packet, or {@code null}. */
    final SimPacket opaque;
    /** Events it carries (1 for a lone frame or an opaque datagram). */
    final int events;
    /** Set when one of its packets was lost on the way: it will never be whole. */
    boolean damaged;
    int packets;
    /** Whether its first packet was queued. */
    boolean firstQueued;
    int packetsArrived;

    SimDatagram(byte[] bytes, int length, SimPacket opaque, int events) {
        this.bytes = bytes;
        this.length = length;
        this.opaque = opaque;
        this.events = events;
    }

    /** A datagram of the first {@code length} bytes of {@code bytes} (taken, not copied). */
    public static SimDatagram of(byte[] bytes, int length) {
        return new SimDatagram(bytes, length, null, 1);
    }

    /** One opaque datagram carrying {@code packet}. */
    public static SimDatagram of(SimPacket packet) {
        if (!packet.opaque()) {
            throw new IllegalArgumentException("a status event travels as its frame's bytes");
        }
        return new SimDatagram(null, packet.length, packet, 1);
    }

    /** Tells {@code each} the variable of every event it carries that core's codec reads as valid. */
    public void forEachVariable(java.util.function.LongConsumer each) {
        if (opaque != null) {
            each.accept(opaque.variableId());
            return;
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
        org.gridstat.core.wire.DatagramReader reader = new org.gridstat.core.wire.DatagramReader();
        org.gridstat.core.wire.StatusEventDecoder decoder = new org.gridstat.core.wire.StatusEventDecoder();
        if (reader.open(buffer, 0, length) != org.gridstat.core.wire.RejectReason.NONE) {
            return;
        }
        while (reader.next()) {
            if (decoder.wrap(buffer, reader.eventOffset(), reader.eventLength()) == org.gridstat.core.wire.RejectReason.NONE) {
                each.accept(decoder.variableId());
            }
        }
    }

    public int length() {
        return length;
    }

    public int events() {
        return events;
    }

    public byte[] bytes() {
        return bytes;
    }

    public SimPacket opaque() {
        return opaque;
    }

    /** IP packets for {@code udpPayload} bytes over a link whose IP MTU is {@code mtu}. */
    public static int packets(int udpPayload, int mtu) {
        int perFragment = (mtu - IP_HEADER) & ~7; // fragment offsets count 8-byte units
        int ipPayload = udpPayload + UDP_HEADER;
        return (ipPayload + perFragment - 1) / perFragment;
    }

    /** Bytes packet {@code index} of {@code count} takes on the wire: its IP header and its share of the payload. */
    public static int packetBytes(int udpPayload, int mtu, int index, int count) {
        int perFragment = (mtu - IP_HEADER) & ~7;
        int ipPayload = udpPayload + UDP_HEADER;
        int share = index < count - 1 ? perFragment : ipPayload - perFragment * (count - 1);
        return IP_HEADER + share;
    }
}
