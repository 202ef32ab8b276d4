package org.gridstat.gateway.c37118.frame;

import java.nio.ByteBuffer;

/**
 * Big-endian reads and writes at absolute indexes, whatever byte order the caller's buffer is set
 * to: C37.118 is big-endian on the wire, and a buffer handed in from a transport may not be.
 */
public final class Bytes {
    private Bytes() {
    }

    public static int u8(ByteBuffer b, int i) {
        return b.get(i) & 0xFF;
    }

    public static int u16(ByteBuffer b, int i) {
        return (b.get(i) & 0xFF) << 8 | (b.get(i + 1) & 0xFF);
    }

    public static int s16(ByteBuffer b, int i) {
        return (short) u16(b, i);
    }

    public static int i32(ByteBuffer b, int i) {
        return u16(b, i) << 16 | u16(b, i + 2);
    }

    public static long u32(ByteBuffer b, int i) {
        return i32(b, i) & 0xFFFF_FFFFL;
    }

    public static void put8(ByteBuffer b, int i, int v) {
        b.put(i, (byte) v);
    }

    public static void put16(ByteBuffer b, int i, int v) {
        b.put(i, (byte) (v >>> 8));
        b.put(i + 1, (byte) v);
    }

    public static void put32(ByteBuffer b, int i, int v) {
        put16(b, i, v >>> 16);
        put16(b, i + 2, v);
    }
}
