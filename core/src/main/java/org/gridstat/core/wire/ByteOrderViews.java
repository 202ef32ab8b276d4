package org.gridstat.core.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Big-endian absolute reads and writes that ignore the buffer's own byte order setting. */
final class ByteOrderViews {
    private static final VarHandle SHORT = MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private ByteOrderViews() {
    }

    static int u8(ByteBuffer b, int index) {
        return b.get(index) & 0xFF;
    }

    static int u16(ByteBuffer b, int index) {
        return (short) SHORT.get(b, index) & 0xFFFF;
    }

    static int i32(ByteBuffer b, int index) {
        return (int) INT.get(b, index);
    }

    static long i64(ByteBuffer b, int index) {
        return (long) LONG.get(b, index);
    }

    static void putU8(ByteBuffer b, int index, int value) {
        b.put(index, (byte) value);
    }

    static void putU16(ByteBuffer b, int index, int value) {
        SHORT.set(b, index, (short) value);
    }

    static void putI32(ByteBuffer b, int index, int value) {
        INT.set(b, index, value);
    }

    static void putI64(ByteBuffer b, int index, long value) {
        LONG.set(b, index, value);
    }
}
