package org.gridstat.rpc.transport;

import java.nio.ByteBuffer;

/**
 * The 2WoPS frame, carried as a status event's payload (big-endian; {@code docs/rpc.md} gives it
 * byte by byte):
 *
 * <pre>
 *  0  u8   magic 0x52 ('R')         22  u8   copies of the try (1..16)
 *  1  u8   version 1                 23  u8   paths of the try (1..8)
 *  2  u8   kind: 1 DATA, 2 ACK       24  u16  spacing of the copies, in 100 us
 *  3  u8   flags: 1 ACK_WANTED       26  u64  message acknowledged, 0 for none
 *  4  u64  connection id (sender's)  34  u16  payload length
 * 12  u64  message id                36  ...  payload
 * 20  u8   attempt (0: first try)
 * 21  u8   copy index
 * </pre>
 *
 * A DATA frame may acknowledge a message of the other direction in the same frame (a reply
 * acknowledges its request). An ACK frame's message id is the message it acknowledges, its
 * attempt the try. One instance decodes frame after frame; {@link #decode} validates everything
 * the receiver relies on.
 */
public final class TransportFrame {
    public static final int MAGIC = 0x52;
    public static final int VERSION = 1;
    public static final int HEADER_LENGTH = 36;
    /** What one status event carries at most, less this header. */
    public static final int MAX_PAYLOAD = org.gridstat.core.wire.WireFormat.MAX_PAYLOAD_LENGTH - HEADER_LENGTH;
    public static final int FLAG_ACK_WANTED = 1;

    private FrameKind kind;
    private int flags;
    private long connectionId;
    private long messageId;
    private int attempt;
    private int copy;
    private int copies;
    private int paths;
    private long spacingNanos;
    private long acknowledges;
    private byte[] bytes;
    private int payloadOffset;
    private int payloadLength;

    /**
     * Writes a frame into {@code out} from 0; returns its length.
     *
     * @throws IllegalArgumentException if the payload does not fit or a field is out of range
     */
    public static int encode(byte[] out, FrameKind kind, int flags, long connectionId, long messageId, int attempt, int copy,
                             Redundancy r, long acknowledges, byte[] payload, int offset, int length) {
        if (length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("a 2WoPS payload is at most " + MAX_PAYLOAD + " bytes, got " + length);
        }
        if (attempt < 0 || attempt > 255 || copy < 0 || copy >= r.copies()) {
            throw new IllegalArgumentException("attempt " + attempt + " or copy " + copy + " out of range");
        }
        ByteBuffer b = ByteBuffer.wrap(out);
        b.put((byte) MAGIC).put((byte) VERSION).put((byte) kind.code).put((byte) flags).putLong(connectionId)
                .putLong(messageId).put((byte) attempt).put((byte) copy).put((byte) r.copies()).put((byte) r.paths())
                .putShort((short) (r.spacingNanos() / Redundancy.SPACING_UNIT_NANOS)).putLong(acknowledges)
                .putShort((short) length).put(payload, offset, length);
        return HEADER_LENGTH + length;
    }

    /** Reads the frame in {@code length} bytes of {@code in} from {@code offset}; the bytes are referenced, not copied. */
    public FrameReject decode(byte[] in, int offset, int length) {
        if (length < HEADER_LENGTH) {
            return FrameReject.TOO_SHORT;
        }
        ByteBuffer b = ByteBuffer.wrap(in, offset, length);
        if ((b.get() & 0xFF) != MAGIC) {
            return FrameReject.BAD_MAGIC;
        }
        if ((b.get() & 0xFF) != VERSION) {
            return FrameReject.BAD_VERSION;
        }
        FrameKind k = FrameKind.of(b.get() & 0xFF);
        if (k == null) {
            return FrameReject.BAD_KIND;
        }
        int f = b.get() & 0xFF;
        long connection = b.getLong();
        long message = b.getLong();
        int att = b.get() & 0xFF;
        int cp = b.get() & 0xFF;
        int n = b.get() & 0xFF;
        int k2 = b.get() & 0xFF;
        long spacing = (b.getShort() & 0xFFFFL) * Redundancy.SPACING_UNIT_NANOS;
        long acked = b.getLong();
        int payload = b.getShort() & 0xFFFF;
        if (connection == 0) {
            return FrameReject.NO_CONNECTION;
        }
        if (n < 1 || n > Redundancy.MAX_COPIES || cp >= n || k2 < 1 || k2 > Redundancy.MAX_PATHS || (n > 1 && spacing == 0)) {
            return FrameReject.BAD_REDUNDANCY;
        }
        if (payload != length - HEADER_LENGTH) {
            return FrameReject.BAD_LENGTH;
        }
        kind = k;
        flags = f;
        connectionId = connection;
        messageId = message;
        attempt = att;
        copy = cp;
        copies = n;
        paths = k2;
        spacingNanos = spacing;
        acknowledges = acked;
        bytes = in;
        payloadOffset = offset + HEADER_LENGTH;
        payloadLength = payload;
        return FrameReject.NONE;
    }

    public FrameKind kind() {
        return kind;
    }

    public boolean ackWanted() {
        return (flags & FLAG_ACK_WANTED) != 0;
    }

    public long connectionId() {
        return connectionId;
    }

    public long messageId() {
        return messageId;
    }

    public int attempt() {
        return attempt;
    }

    public int copy() {
        return copy;
    }

    /** The redundancy the sender used for this try; its retries are not on the wire (0 here). */
    public Redundancy redundancy() {
        return new Redundancy(paths, copies, spacingNanos, 0);
    }

    public long acknowledges() {
        return acknowledges;
    }

    public byte[] bytes() {
        return bytes;
    }

    public int payloadOffset() {
        return payloadOffset;
    }

    public int payloadLength() {
        return payloadLength;
    }
}
