package org.gridstat.gateway.c37118.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.junit.jupiter.api.Test;

class FrameChecksumTest {
    @Test
    void crcCcittFalseOfTheCatalogueVector() {
        byte[] v = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x29B1, FrameChecksum.compute(v, 0, v.length));
        assertEquals(0x29B1, FrameChecksum.compute(ByteBuffer.wrap(v), 0, v.length));
    }

    @Test
    void emptyInputIsTheInitialValue() {
        assertEquals(0xFFFF, FrameChecksum.compute(new byte[0], 0, 0));
    }

    @Test
    void matchesTheCheckWordOfTheAnnexDataFrame() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        assertEquals(0xD43F, FrameChecksum.compute(f, 0, f.length - 2));
    }

    @Test
    void readsAtAnOffsetInABuffer() {
        byte[] v = "xx123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x29B1, FrameChecksum.compute(ByteBuffer.wrap(v), 2, 9));
    }
}
