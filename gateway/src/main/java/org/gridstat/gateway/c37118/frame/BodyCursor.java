package org.gridstat.gateway.c37118.frame;

import java.nio.ByteBuffer;

/**
 * Reads a frame body field by field up to a hard limit (the CHK word). A read past the limit does
 * not throw: it returns 0 and marks the cursor overrun, so a decoder checks once at the end, and
 * checks {@link #has} before allocating anything sized by a count read from the wire.
 */
public final class BodyCursor {
    private ByteBuffer buffer;
    private int position;
    private int limit;
    private boolean overrun;

    public BodyCursor wrap(ByteBuffer buffer, int position, int limit) {
        this.buffer = buffer;
        this.position = position;
        this.limit = limit;
        this.overrun = false;
        return this;
    }

    /** Whether {@code n} more bytes lie before the limit. */
    public boolean has(long n) {
        return !overrun && n <= limit - position;
    }

    private boolean take(int n) {
        if (!has(n)) {
            overrun = true;
            return false;
        }
        return true;
    }

    public int u8() {
        if (!take(1)) {
            return 0;
        }
        return Bytes.u8(buffer, position++);
    }

    public int u16() {
        if (!take(2)) {
            return 0;
        }
        int v = Bytes.u16(buffer, position);
        position += 2;
        return v;
    }

    public int i32() {
        if (!take(4)) {
            return 0;
        }
        int v = Bytes.i32(buffer, position);
        position += 4;
        return v;
    }

    public long i64() {
        long hi = i32() & 0xFFFF_FFFFL;
        return hi << 32 | (i32() & 0xFFFF_FFFFL);
    }

    public byte[] bytes(int n) {
        if (!take(n)) {
            return new byte[0];
        }
        byte[] out = new byte[n];
        buffer.get(position, out);
        position += n;
        return out;
    }

    public int position() {
        return position;
    }

    public int remaining() {
        return overrun ? 0 : limit - position;
    }

    public boolean overrun() {
        return overrun;
    }

    /** Every byte up to the limit read, none past it. */
    public boolean exhausted() {
        return !overrun && position == limit;
    }
}
