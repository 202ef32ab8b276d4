package org.gridstat.htb;

import java.net.Inet4Address;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a u32 filter matches in a UDP/IPv4 packet: 32-bit (value, mask) keys at byte offsets from the
 * start of the IPv4 header. It assumes a 20-byte header, so every match carries the keys
 * {@code ihl == 5} and {@code protocol == UDP} and the UDP payload starts at offset
 * {@value #UDP_PAYLOAD_OFFSET}; a packet with IP options (or a non-first fragment) matches nothing.
 * Matches on bits of one word are merged into one key.
 */
public final class U32Match {
    /** The UDP payload's offset from the IPv4 header. */
    public static final int UDP_PAYLOAD_OFFSET = 28;
    /** u32's limit on keys per filter. */
    public static final int MAX_KEYS = 128;

    private static final int IPPROTO_UDP = 17;

    private final List<Key> keys;

    private U32Match(List<Key> keys) {
        this.keys = keys;
    }

    /** A match of UDP over IPv4 (with a 20-byte header), to be narrowed. */
    public static Builder udp() {
        return new Builder();
    }

    /** The keys by offset. */
    public List<Key> keys() {
        return keys;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof U32Match m && keys.equals(m.keys);
    }

    @Override
    public int hashCode() {
        return keys.hashCode();
    }

    /** As tc shows the keys: {@code match 05000000/0f000000 at 0 ...}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Key k : keys) {
            s.append(s.length() == 0 ? "" : " ").append(k);
        }
        return s.toString();
    }

    /**
     * A 32-bit word at a byte offset from the IPv4 header matches when {@code (word & mask) == value}.
     *
     * @param offset a multiple of 4, from 0
     * @param value the word's expected bits, in the packet's (network) order read as an int; no bits outside mask
     * @param mask the bits compared, not 0
     */
    public record Key(int offset, int value, int mask) {
        public Key {
            if (offset < 0 || offset % 4 != 0) {
                throw new IllegalArgumentException("offset must be a multiple of 4 from 0, not " + offset);
            }
            if (mask == 0) {
                throw new IllegalArgumentException("mask 0 at offset " + offset + " would match every packet");
            }
            if ((value & ~mask) != 0) {
                throw new IllegalArgumentException(String.format(
                        "value %08x has bits outside mask %08x at offset %d", value, mask, offset));
            }
        }

        @Override
        public String toString() {
            return String.format("match %08x/%08x at %d", value, mask, offset);
        }
    }

    /** Narrows a UDP match; each method adds a key (or bits of one already there). */
    public static final class Builder {
        private final TreeMap<Integer, Key> keys = new TreeMap<>();

        private Builder() {
            add(0, 0x0500_0000, 0x0F00_0000, "the IPv4 header length");
            add(8, IPPROTO_UDP << 16, 0x00FF_0000, "the protocol");
        }

        public Builder destination(Inet4Address address) {
            byte[] a = Objects.requireNonNull(address, "address").getAddress();
            int word = (a[0] & 0xFF) << 24 | (a[1] & 0xFF) << 16 | (a[2] & 0xFF) << 8 | (a[3] & 0xFF);
            return add(16, word, 0xFFFF_FFFF, "the destination address");
        }

        public Builder sourcePort(int port) {
            return add(20, requirePort(port) << 16, 0xFFFF_0000, "the source port");
        }

        public Builder destinationPort(int port) {
            return add(20, requirePort(port), 0x0000_FFFF, "the destination port");
        }

        /** The DSCP (0 to 63): the upper six bits of the type-of-service byte. */
        public Builder dscp(int dscp) {
            if (dscp < 0 || dscp > 63) {
                throw new IllegalArgumentException("dscp must be 0 to 63, not " + dscp);
            }
            return add(0, dscp << 18, 0x00FC_0000, "the DSCP");
        }

        /**
         * A word of the UDP payload.
         *
         * @param payloadOffset from the start of the payload, a multiple of 4
         * @param value the word's expected bits as the packet carries them (big-endian), none outside mask
         * @param mask the bits compared
         */
        public Builder payloadWord(int payloadOffset, int value, int mask) {
            if (payloadOffset < 0 || payloadOffset % 4 != 0 || payloadOffset > 65_535 - UDP_PAYLOAD_OFFSET - 4) {
                throw new IllegalArgumentException("payloadOffset must be a multiple of 4 within a datagram, not "
                        + payloadOffset);
            }
            if (mask == 0 || (value & ~mask) != 0) {
                throw new IllegalArgumentException(String.format(
                        "payload word at %d: value %08x must lie within a mask that is not 0 (%08x)", payloadOffset,
                        value, mask));
            }
            return add(UDP_PAYLOAD_OFFSET + payloadOffset, value, mask, "the payload word at " + payloadOffset);
        }

        public U32Match build() {
            return new U32Match(List.copyOf(keys.values()));
        }

        private Builder add(int offset, int value, int mask, String what) {
            Key earlier = keys.get(offset);
            if (earlier != null) {
                int shared = earlier.mask() & mask;
                if (((earlier.value() ^ value) & shared) != 0) {
                    throw new IllegalArgumentException(what + " contradicts an earlier match at offset " + offset
                            + String.format(" (%08x/%08x against %08x/%08x)", value, mask, earlier.value(),
                                    earlier.mask()));
                }
                value |= earlier.value();
                mask |= earlier.mask();
            } else if (keys.size() == MAX_KEYS) {
                throw new IllegalArgumentException("u32 takes at most " + MAX_KEYS + " keys");
            }
            keys.put(offset, new Key(offset, value, mask));
            return this;
        }

        private static int requirePort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("a port is 0 to 65535, not " + port);
            }
            return port;
        }
    }
}
