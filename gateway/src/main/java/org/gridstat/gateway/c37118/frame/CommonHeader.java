package org.gridstat.gateway.c37118.frame;

import java.nio.ByteBuffer;

/**
 * The 14 bytes every frame starts with, and the CHK word it ends with:
 * SYNC (0xAA, then reserved bit 7, frame type bits 6-4, version bits 3-0), FRAMESIZE (the whole
 * frame, CHK included), IDCODE, SOC (seconds since 1970, unsigned 32 bits), FRACSEC (time quality
 * byte, then the 24-bit fraction count). Static reads and writes at an offset; no allocation.
 */
public final class CommonHeader {
    public static final int SYNC_LEAD = 0xAA;
    public static final int LENGTH = 14;
    public static final int CHECKSUM_LENGTH = 2;
    /** A header frame with no text: header and CHK only. */
    public static final int MIN_FRAME_SIZE = LENGTH + CHECKSUM_LENGTH;
    /** FRAMESIZE is 16 bits. */
    public static final int MAX_FRAME_SIZE = 0xFFFF;
    public static final int VERSION_2005 = 1;
    public static final int VERSION_2011 = 2;

    static final int FRAMESIZE_OFFSET = 2;
    static final int IDCODE_OFFSET = 4;
    static final int SOC_OFFSET = 6;
    static final int FRACSEC_OFFSET = 10;

    private CommonHeader() {
    }

    /** The second SYNC byte for a frame type and version. */
    public static int syncByte(FrameType type, int version) {
        return type.code() << 4 | (version & 0x0F);
    }

    /** Whether two bytes can start a frame this codec reads; {@link FrameReject#NONE} if so. */
    public static FrameReject checkSync(int lead, int second) {
        if ((lead & 0xFF) != SYNC_LEAD) {
            return FrameReject.BAD_SYNC;
        }
        FrameType type = FrameType.ofCode((second >>> 4) & 0x07);
        if ((second & 0x80) != 0 || type == null) {
            return FrameReject.UNKNOWN_FRAME_TYPE;
        }
        int version = second & 0x0F;
        if (version != VERSION_2005 && version != VERSION_2011) {
            return FrameReject.UNSUPPORTED_VERSION;
        }
        // The 2005 standard has no CFG-3: code 5 in a version-1 frame is not a frame it defines.
        if (type == FrameType.CONFIG_3 && version == VERSION_2005) {
            return FrameReject.UNSUPPORTED_VERSION;
        }
        return FrameReject.NONE;
    }

    /** Validates the frame of {@code length} bytes at {@code offset}: sync, FRAMESIZE and CRC. */
    public static FrameReject check(ByteBuffer b, int offset, int length) {
        if (length < MIN_FRAME_SIZE) {
            return FrameReject.TRUNCATED;
        }
        FrameReject sync = checkSync(b.get(offset), b.get(offset + 1));
        if (sync != FrameReject.NONE) {
            return sync;
        }
        int size = frameSize(b, offset);
        if (size > length) {
            return FrameReject.TRUNCATED;
        }
        if (size != length) {
            return FrameReject.BAD_LENGTH;
        }
        int expected = Bytes.u16(b, offset + size - CHECKSUM_LENGTH);
        if (FrameChecksum.compute(b, offset, size - CHECKSUM_LENGTH) != expected) {
            return FrameReject.BAD_CRC;
        }
        return FrameReject.NONE;
    }

    public static FrameType type(ByteBuffer b, int offset) {
        return FrameType.ofCode((b.get(offset + 1) >>> 4) & 0x07);
    }

    public static int version(ByteBuffer b, int offset) {
        return b.get(offset + 1) & 0x0F;
    }

    public static int frameSize(ByteBuffer b, int offset) {
        return Bytes.u16(b, offset + FRAMESIZE_OFFSET);
    }

    public static int idCode(ByteBuffer b, int offset) {
        return Bytes.u16(b, offset + IDCODE_OFFSET);
    }

    public static long soc(ByteBuffer b, int offset) {
        return Bytes.u32(b, offset + SOC_OFFSET);
    }

    public static int fracSec(ByteBuffer b, int offset) {
        return Bytes.i32(b, offset + FRACSEC_OFFSET);
    }

    /** Writes the 14 header bytes. */
    public static void write(ByteBuffer b, int offset, FrameType type, int version, int frameSize, int idCode,
                             long soc, int fracSec) {
        Bytes.put8(b, offset, SYNC_LEAD);
        Bytes.put8(b, offset + 1, syncByte(type, version));
        Bytes.put16(b, offset + FRAMESIZE_OFFSET, frameSize);
        Bytes.put16(b, offset + IDCODE_OFFSET, idCode);
        Bytes.put32(b, offset + SOC_OFFSET, (int) soc);
        Bytes.put32(b, offset + FRACSEC_OFFSET, fracSec);
    }

    /** Writes the CHK word over the first {@code frameSize - 2} bytes of the frame. */
    public static void seal(ByteBuffer b, int offset, int frameSize) {
        int body = frameSize - CHECKSUM_LENGTH;
        Bytes.put16(b, offset + body, FrameChecksum.compute(b, offset, body));
    }
}
