package org.gridstat.gateway.mapping;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.frame.Bytes;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Joins the parts of a PMU's description (see {@link PmuDescription}) as they arrive: in any
 * order, repeated (the ingest republishes descriptions), mixed with late parts of the description
 * before. One per description variable; not thread safe.
 *
 * <p>Which description is gathered. The parts of one CRC are the current description. A part of
 * another CRC replaces it if its CFGCNT is newer (serial arithmetic on 16 bits: 1 to 32,767
 * ahead); one whose CFGCNT is older or equal is taken for a late part of a superseded description
 * and dropped ({@link PartOutcome#STALE}), unless that CRC's parts keep arriving alone, more than
 * twice its part count in a row with none of the current description's: then the source restarted
 * its count or changed its description without changing CFGCNT, and that description is adopted.
 *
 * <p>Memory. Only the current description's parts are held, at most 255 parts of the payload
 * limit; what is held is dropped when another description is adopted.
 *
 * <p>A part is checked against the others of its CRC (count, CFGCNT, lengths, bytes of a repeated
 * index); the whole, once every part is in, against its CRC and as a CFG-2 of exactly one PMU.
 */
public final class DescriptionAssembler {
    private final ConfigFrameCodec codec = new ConfigFrameCodec();
    private final int maxPayload;
    private final int room;
    private final long[] counts = new long[PartOutcome.values().length];
    private final boolean[] held = new boolean[PmuDescription.MAX_PARTS];
    private final int[] lengths = new int[PmuDescription.MAX_PARTS];
    private byte[] parts = new byte[0];

    private boolean current;
    private boolean complete;
    private int crc;
    private int configCount;
    private int count;
    private int heldCount;
    private int fullLength;
    private int lastLength;

    private boolean staleSeen;
    private int staleCrc;
    private int staleRun;

    private ConfigFrame description;

    /** An assembler for parts of at most a status-event payload. */
    public DescriptionAssembler() {
        this(PmuSample.MAX_LENGTH);
    }

    public DescriptionAssembler(int maxPayload) {
        if (maxPayload <= PmuDescription.HEADER_LENGTH) {
            throw new IllegalArgumentException("a part needs more than its " + PmuDescription.HEADER_LENGTH + "-byte header");
        }
        this.maxPayload = maxPayload;
        this.room = maxPayload - PmuDescription.HEADER_LENGTH;
    }

    public PartOutcome accept(byte[] payload, int offset, int length) {
        return accept(ByteBuffer.wrap(payload), offset, length);
    }

    /** Takes one part payload of {@code length} bytes at {@code offset}; never throws on its content. */
    public PartOutcome accept(ByteBuffer b, int offset, int length) {
        return counted(offer(b, offset, length));
    }

    private PartOutcome counted(PartOutcome outcome) {
        counts[outcome.ordinal()]++;
        return outcome;
    }

    private PartOutcome offer(ByteBuffer b, int offset, int length) {
        if (length < PmuDescription.HEADER_LENGTH) {
            return PartOutcome.TOO_SHORT;
        }
        if (length > maxPayload) {
            return PartOutcome.TOO_LONG;
        }
        if (Bytes.u8(b, offset) != PmuDescription.KIND) {
            return PartOutcome.UNKNOWN_KIND;
        }
        int index = Bytes.u8(b, offset + PmuDescription.INDEX_OFFSET);
        int partCount = Bytes.u8(b, offset + PmuDescription.COUNT_OFFSET);
        int partConfigCount = Bytes.u16(b, offset + PmuDescription.CFGCNT_OFFSET);
        int partCrc = Bytes.i32(b, offset + PmuDescription.CRC_OFFSET);
        if (index >= partCount) {
            return PartOutcome.BAD_INDEX;
        }
        if (length == PmuDescription.HEADER_LENGTH) {
            return PartOutcome.BAD_PART_LENGTH;
        }
        if (!current || partCrc != crc) {
            if (current && !newer(partConfigCount, configCount) && !persistentlyStale(partCrc, partCount)) {
                return PartOutcome.STALE;
            }
            adopt(partCrc, partConfigCount, partCount);
        } else {
            staleRun = 0;
            if (complete) {
                return PartOutcome.REPEAT;
            }
            if (partCount != count || partConfigCount != configCount) {
                return PartOutcome.INCONSISTENT;
            }
        }
        return store(b, offset + PmuDescription.HEADER_LENGTH, index, length - PmuDescription.HEADER_LENGTH);
    }

    /** {@code a} is 1 to 32,767 counts after {@code b}, modulo 2^16. */
    private static boolean newer(int a, int b) {
        int d = (a - b) & 0xFFFF;
        return d != 0 && d < 0x8000;
    }

    private boolean persistentlyStale(int partCrc, int partCount) {
        if (staleSeen && partCrc == staleCrc) {
            staleRun++;
        } else {
            staleSeen = true;
            staleCrc = partCrc;
            staleRun = 1;
        }
        return staleRun > 2 * partCount;
    }

    private void adopt(int newCrc, int newConfigCount, int newCount) {
        current = true;
        complete = false;
        crc = newCrc;
        configCount = newConfigCount;
        count = newCount;
        staleSeen = false;
        staleRun = 0;
        clearParts();
        if (parts.length < newCount * room) {
            parts = new byte[newCount * room];
        }
    }

    private void clearParts() {
        java.util.Arrays.fill(held, false);
        heldCount = 0;
        fullLength = 0;
        lastLength = 0;
    }

    private PartOutcome store(ByteBuffer b, int from, int index, int n) {
        int at = index * room;
        if (held[index]) {
            if (n != lengths[index]) {
                return PartOutcome.CONFLICTING_PART;
            }
            for (int i = 0; i < n; i++) {
                if (b.get(from + i) != parts[at + i]) {
                    return PartOutcome.CONFLICTING_PART;
                }
            }
            return PartOutcome.DUPLICATE;
        }
        // Every part but the last is as long as the sender's payload allowed, whatever that was.
        if (index < count - 1) {
            if (fullLength == 0 ? n < lastLength : n != fullLength) {
                return PartOutcome.BAD_PART_LENGTH;
            }
            fullLength = n;
        } else {
            if (fullLength != 0 && n > fullLength) {
                return PartOutcome.BAD_PART_LENGTH;
            }
            lastLength = n;
        }
        b.get(from, parts, at, n);
        held[index] = true;
        lengths[index] = n;
        return ++heldCount == count ? finish() : PartOutcome.STORED;
    }

    private PartOutcome finish() {
        int total = (count - 1) * fullLength + lastLength;
        byte[] cfg2 = new byte[total];
        for (int i = 0; i < count; i++) {
            System.arraycopy(parts, i * room, cfg2, i * fullLength, lengths[i]);
        }
        if (PmuDescription.crc(cfg2, 0, total) != crc) {
            clearParts();
            return PartOutcome.BAD_CRC;
        }
        Decoded<ConfigFrame> d = codec.decode(ByteBuffer.wrap(cfg2), 0, total);
        if (!d.ok() || d.frame().type() != FrameType.CONFIG_2 || d.frame().pmus().size() != 1
                || d.frame().pmus().get(0).configCount() != configCount) {
            clearParts();
            return PartOutcome.NOT_A_DESCRIPTION;
        }
        complete = true;
        description = d.frame();
        return PartOutcome.COMPLETE;
    }

    /** The description last completed, or null before the first. */
    public ConfigFrame description() {
        return description;
    }

    /** How many parts had this outcome. */
    public long count(PartOutcome outcome) {
        return counts[outcome.ordinal()];
    }

    /** How many parts of the current description are held, waiting for the rest. */
    public int held() {
        return complete ? 0 : heldCount;
    }
}
