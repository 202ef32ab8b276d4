package org.gridstat.gateway.aggregate;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The compact meter format, version 1 (docs/meter-format.md): a TCP stream of fixed-size records,
 * big-endian, each opened by a magic byte, its type and its length, and closed by a CRC-32C of the
 * bytes before it. A connection's first record is a hello naming the meter and its region; readings
 * follow. Writes records for meters and tests; {@link MeterDecoder} reads them.
 */
public final class MeterFormat {
    /** Every record's first byte, 'M': what the decoder resynchronises on after damage. */
    public static final byte MAGIC = 0x4D;
    public static final int TYPE_HELLO = 1;
    public static final int TYPE_READING = 2;
    public static final int VERSION = 1;
    /** Magic, type, length. */
    public static final int HEADER_LENGTH = 4;
    public static final int HELLO_LENGTH = 16;
    public static final int READING_LENGTH = 32;
    public static final int LONGEST_RECORD = READING_LENGTH;
    public static final int CRC_LENGTH = 4;

    // hello
    static final int HELLO_METER = 4;
    static final int HELLO_REGION = 8;
    static final int HELLO_VERSION = 10;
    // reading
    static final int READING_TIME = 4;
    static final int READING_QUALITY = 12;
    static final int READING_KINDS = 13;
    static final int READING_VALUES = 16;

    /** Quality bit 0: the meter marks the values estimated or questionable. */
    public static final int QUALITY_QUESTIONABLE = 1;
    /** Quality bit 1: the meter's clock is not synchronised. */
    public static final int QUALITY_UNSYNCHRONISED = 2;

    private MeterFormat() {
    }

    /** The length a record of this type must have, or -1 for a type this version does not know. */
    public static int lengthOf(int type) {
        return switch (type) {
            case TYPE_HELLO -> HELLO_LENGTH;
            case TYPE_READING -> READING_LENGTH;
            default -> -1;
        };
    }

    /**
     * Writes a hello at the buffer's position, advancing it.
     *
     * @param meterId the meter's id, any 32 bits (read back unsigned)
     * @param regionId 0 to 65,535
     */
    public static void writeHello(ByteBuffer out, int meterId, int regionId, CRC32C crc) {
        if (regionId < 0 || regionId > 0xFFFF) {
            throw new IllegalArgumentException("a region id is 0 to 65535: " + regionId);
        }
        int at = out.position();
        out.put(MAGIC).put((byte) TYPE_HELLO).putShort((short) HELLO_LENGTH)
                .putInt(meterId).putShort((short) regionId).put((byte) VERSION).put((byte) 0);
        seal(out, at, HELLO_LENGTH, crc);
    }

    /**
     * Writes a reading at the buffer's position, advancing it.
     *
     * @param timeMicros the meter's time of the reading, microseconds since 1970-01-01 UTC
     * @param kinds the {@link ValueKind} bits of the values carried; the others are written as 0
     */
    public static void writeReading(ByteBuffer out, long timeMicros, int quality, int kinds, float activePower,
                                    float reactivePower, float voltage, CRC32C crc) {
        int at = out.position();
        out.put(MAGIC).put((byte) TYPE_READING).putShort((short) READING_LENGTH)
                .putLong(timeMicros).put((byte) quality).put((byte) kinds).putShort((short) 0)
                .putFloat((kinds & ValueKind.ACTIVE_POWER.bit()) != 0 ? activePower : 0f)
                .putFloat((kinds & ValueKind.REACTIVE_POWER.bit()) != 0 ? reactivePower : 0f)
                .putFloat((kinds & ValueKind.VOLTAGE.bit()) != 0 ? voltage : 0f);
        seal(out, at, READING_LENGTH, crc);
    }

    private static void seal(ByteBuffer out, int at, int length, CRC32C crc) {
        crc.reset();
        ByteBuffer body = out.duplicate();
        body.position(at).limit(at + length - CRC_LENGTH);
        crc.update(body);
        out.putInt((int) crc.getValue());
    }

    /** A hello as bytes. */
    public static byte[] hello(int meterId, int regionId) {
        ByteBuffer b = ByteBuffer.allocate(HELLO_LENGTH);
        writeHello(b, meterId, regionId, new CRC32C());
        return b.array();
    }

    /** A reading as bytes. */
    public static byte[] reading(long timeMicros, int quality, int kinds, float activePower, float reactivePower,
                                 float voltage) {
        ByteBuffer b = ByteBuffer.allocate(READING_LENGTH);
        writeReading(b, timeMicros, quality, kinds, activePower, reactivePower, voltage, new CRC32C());
        return b.array();
    }
}
