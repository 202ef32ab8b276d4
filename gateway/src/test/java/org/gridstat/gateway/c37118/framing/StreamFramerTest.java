package org.gridstat.gateway.c37118.framing;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

class StreamFramerTest {
    private final List<String> frames = new ArrayList<>();
    private final List<FrameType> types = new ArrayList<>();
    private final FrameHandler handler = new FrameHandler() {
        @Override
        public void onFrame(FrameType type, ByteBuffer buffer, int offset, int length) {
            byte[] copy = new byte[length];
            buffer.get(offset, copy);
            frames.add(HexFormat.of().formatHex(copy));
            types.add(type);
        }
    };

    private static final List<String> ALL = List.of(AnnexFrames.CONFIG_2_ONE_PMU, AnnexFrames.DATA_ONE_PMU,
            AnnexFrames.HEADER, AnnexFrames.COMMAND_DATA_ON, AnnexFrames.CONFIG_2_TWO_PMUS, AnnexFrames.DATA_TWO_PMUS);

    private static byte[] join(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof String s ? AnnexFrames.bytes(s) : (byte[]) p);
        }
        return out.toByteArray();
    }

    @Test
    void severalFramesInOneChunk() {
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(ALL.toArray())));
        assertEquals(ALL, frames);
        assertEquals(List.of(FrameType.CONFIG_2, FrameType.DATA, FrameType.HEADER, FrameType.COMMAND, FrameType.CONFIG_2,
                FrameType.DATA), types);
        assertEquals(6, framer.frames());
        assertEquals(0, framer.bytesSkipped());
        assertEquals(0, framer.buffered());
    }

    @Test
    void framesSplitByteByByte() {
        StreamFramer framer = new StreamFramer(handler);
        byte[] all = join(ALL.toArray());
        for (int i = 0; i < all.length; i++) {
            framer.accept(all, i, 1);
        }
        assertEquals(ALL, frames);
        assertEquals(all.length, framer.bytesIn());
    }

    @Test
    void chunksLargerThanTheBufferAndSplitAnywhere() {
        StreamFramer framer = new StreamFramer(handler, 900); // the largest frame here is 884 bytes
        byte[] all = join(ALL.toArray());
        byte[] many = new byte[all.length * 20];
        for (int i = 0; i < 20; i++) {
            System.arraycopy(all, 0, many, i * all.length, all.length);
        }
        for (int at = 0, step = 1; at < many.length; at += step, step = step * 7 % 1013 + 1) {
            framer.accept(ByteBuffer.wrap(many, at, Math.min(step, many.length - at)));
        }
        assertEquals(120, frames.size());
        assertEquals(0, framer.bytesSkipped());
    }

    @Test
    void garbageBetweenFramesIsSkippedAndCounted() {
        byte[] garbage = {1, 2, 3, (byte) 0xAA, (byte) 0x71, 9, (byte) 0xAA};
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(garbage, AnnexFrames.DATA_ONE_PMU, garbage, AnnexFrames.COMMAND_DATA_ON)));
        assertEquals(List.of(AnnexFrames.DATA_ONE_PMU, AnnexFrames.COMMAND_DATA_ON), frames);
        assertEquals(2L * garbage.length, framer.bytesSkipped());
        assertEquals(2, framer.rejects(FrameReject.BAD_SYNC), "one per run of garbage");
        // per run: 0xAA 0x71 (type 7), and the trailing 0xAA before the frame's own 0xAA (reserved bit 7)
        assertEquals(4, framer.rejects(FrameReject.UNKNOWN_FRAME_TYPE));
    }

    @Test
    void aCorruptCrcIsDroppedAndTheNextFrameFound() {
        byte[] bad = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        bad[bad.length - 1] ^= 0x55;
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(bad, AnnexFrames.DATA_ONE_PMU)));
        assertEquals(List.of(AnnexFrames.DATA_ONE_PMU), frames);
        assertEquals(1, framer.rejects(FrameReject.BAD_CRC));
        assertEquals(bad.length, framer.bytesSkipped());
        assertEquals(0, framer.rejects(FrameReject.BAD_SYNC), "the scan after a bad candidate is the same resynchronisation");
    }

    @Test
    void aFrameThatStartsInsideADamagedOneIsFound() {
        // A damaged header claims 60 bytes; a whole command frame lies inside those 60 bytes.
        byte[] head = HexFormat.of().parseHex("aa01003c1e36");
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(head, AnnexFrames.COMMAND_DATA_ON, new byte[60], AnnexFrames.HEADER)));
        assertEquals(List.of(AnnexFrames.COMMAND_DATA_ON, AnnexFrames.HEADER), frames);
        assertEquals(1, framer.rejects(FrameReject.BAD_CRC));
    }

    @Test
    void aHugeFrameSizeIsRejectedNotAwaited() {
        StreamFramer framer = new StreamFramer(handler, 1024);
        byte[] huge = HexFormat.of().parseHex("aa01fff01e36");
        framer.accept(ByteBuffer.wrap(join(huge, AnnexFrames.DATA_ONE_PMU)));
        assertEquals(List.of(AnnexFrames.DATA_ONE_PMU), frames);
        assertEquals(1, framer.rejects(FrameReject.BAD_LENGTH));
        assertEquals(0, framer.buffered());
    }

    @Test
    void theLargestFrameSizeFitsTheDefaultBuffer() {
        StreamFramer framer = new StreamFramer(handler);
        ByteBuffer f = ByteBuffer.allocate(65_535);
        CommonHeader.write(f, 0, FrameType.HEADER, 2, 65_535, 1, 2, 3);
        CommonHeader.seal(f, 0, 65_535);
        byte[] bytes = f.array();
        for (int at = 0; at < bytes.length; at += 1000) {
            framer.accept(bytes, at, Math.min(1000, bytes.length - at));
        }
        assertEquals(1, frames.size());
        assertEquals(65_535, frames.get(0).length() / 2);
    }

    @Test
    void aFrameSizeBelowTheMinimumIsRejected() {
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(HexFormat.of().parseHex("aa01000f"), AnnexFrames.HEADER)));
        assertEquals(List.of(AnnexFrames.HEADER), frames);
        assertEquals(1, framer.rejects(FrameReject.BAD_LENGTH));
    }

    @Test
    void unsupportedVersionsAreSkipped() {
        byte[] v3 = AnnexFrames.bytes(AnnexFrames.COMMAND_DATA_ON);
        v3[1] = 0x43;
        CommonHeader.seal(ByteBuffer.wrap(v3), 0, v3.length);
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(ByteBuffer.wrap(join(v3, AnnexFrames.COMMAND_DATA_ON)));
        assertEquals(List.of(AnnexFrames.COMMAND_DATA_ON), frames);
        assertEquals(1, framer.rejects(FrameReject.UNSUPPORTED_VERSION));
    }

    @Test
    void aPartialFrameAtTheEndOfTheStreamIsTruncated() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        StreamFramer framer = new StreamFramer(handler);
        framer.accept(f, 0, 20);
        assertEquals(20, framer.buffered());
        framer.endOfStream();
        assertEquals(1, framer.rejects(FrameReject.TRUNCATED));
        assertEquals(20, framer.bytesSkipped());
        framer.accept(f, 0, f.length);
        assertEquals(List.of(AnnexFrames.DATA_ONE_PMU), frames, "usable again after the end of a stream");
    }

    @Test
    void rejectionsReachTheHandler() {
        List<FrameReject> seen = new ArrayList<>();
        StreamFramer framer = new StreamFramer(new FrameHandler() {
            @Override
            public void onFrame(FrameType type, ByteBuffer buffer, int offset, int length) {
            }

            @Override
            public void onReject(FrameReject reason, int bytes) {
                seen.add(reason);
            }
        });
        framer.accept(ByteBuffer.wrap(new byte[] {0, 0, (byte) 0xAA, (byte) 0xE1}));
        assertEquals(List.of(FrameReject.BAD_SYNC, FrameReject.UNKNOWN_FRAME_TYPE), seen);
        assertEquals(java.util.Map.of(FrameReject.BAD_SYNC, 1L, FrameReject.UNKNOWN_FRAME_TYPE, 1L), framer.rejectCounts());
    }
}
