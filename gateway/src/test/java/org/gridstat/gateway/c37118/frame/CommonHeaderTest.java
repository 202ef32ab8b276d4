package org.gridstat.gateway.c37118.frame;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.junit.jupiter.api.Test;

class CommonHeaderTest {
    @Test
    void syncWordCarriesTypeAndVersion() {
        assertEquals(0x01, CommonHeader.syncByte(FrameType.DATA, 1));
        assertEquals(0x11, CommonHeader.syncByte(FrameType.HEADER, 1));
        assertEquals(0x22, CommonHeader.syncByte(FrameType.CONFIG_1, 2));
        assertEquals(0x32, CommonHeader.syncByte(FrameType.CONFIG_2, 2));
        assertEquals(0x42, CommonHeader.syncByte(FrameType.COMMAND, 2));
        assertEquals(0x52, CommonHeader.syncByte(FrameType.CONFIG_3, 2));
    }

    @Test
    void refusesReservedTypesVersionsAndTheReservedBit() {
        assertEquals(FrameReject.NONE, CommonHeader.checkSync(0xAA, 0x01));
        assertEquals(FrameReject.NONE, CommonHeader.checkSync(0xAA, 0x52));
        assertEquals(FrameReject.BAD_SYNC, CommonHeader.checkSync(0xAB, 0x01));
        assertEquals(FrameReject.UNKNOWN_FRAME_TYPE, CommonHeader.checkSync(0xAA, 0x62));
        assertEquals(FrameReject.UNKNOWN_FRAME_TYPE, CommonHeader.checkSync(0xAA, 0x72));
        assertEquals(FrameReject.UNKNOWN_FRAME_TYPE, CommonHeader.checkSync(0xAA, 0x81));
        assertEquals(FrameReject.UNSUPPORTED_VERSION, CommonHeader.checkSync(0xAA, 0x00));
        assertEquals(FrameReject.UNSUPPORTED_VERSION, CommonHeader.checkSync(0xAA, 0x03));
        assertEquals(FrameReject.UNSUPPORTED_VERSION, CommonHeader.checkSync(0xAA, 0x51), "no CFG-3 in 2005");
    }

    @Test
    void readsTheAnnexHeaderWhateverTheBufferOrder() {
        ByteBuffer b = ByteBuffer.wrap(AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FrameReject.NONE, CommonHeader.check(b, 0, b.capacity()));
        assertEquals(FrameType.CONFIG_2, CommonHeader.type(b, 0));
        assertEquals(1, CommonHeader.version(b, 0));
        assertEquals(454, CommonHeader.frameSize(b, 0));
        assertEquals(7734, CommonHeader.idCode(b, 0));
        assertEquals(1_149_577_200L, CommonHeader.soc(b, 0));
        int fracSec = CommonHeader.fracSec(b, 0);
        assertEquals(463_000, FracSec.fraction(fracSec));
        assertTrue(FracSec.leapDelete(fracSec));
        assertFalse(FracSec.leapOccurred(fracSec));
        assertTrue(FracSec.leapPending(fracSec));
        assertEquals(6, FracSec.qualityCode(fracSec));
    }

    @Test
    void checkNamesWhatIsWrong() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.DATA_ONE_PMU);
        ByteBuffer b = ByteBuffer.wrap(f);
        assertEquals(FrameReject.TRUNCATED, CommonHeader.check(b, 0, 15));
        assertEquals(FrameReject.TRUNCATED, CommonHeader.check(b, 0, f.length - 1));
        byte[] longer = java.util.Arrays.copyOf(f, f.length + 1);
        assertEquals(FrameReject.BAD_LENGTH, CommonHeader.check(ByteBuffer.wrap(longer), 0, longer.length));
        f[20] ^= 1;
        assertEquals(FrameReject.BAD_CRC, CommonHeader.check(b, 0, f.length));
    }

    @Test
    void socIsUnsigned() {
        ByteBuffer b = ByteBuffer.allocate(16);
        CommonHeader.write(b, 0, FrameType.HEADER, 2, 16, 0xFFFF, 0xFFFF_FFFFL, 0);
        CommonHeader.seal(b, 0, 16);
        assertEquals(0xFFFF_FFFFL, CommonHeader.soc(b, 0));
        assertEquals(0xFFFF, CommonHeader.idCode(b, 0));
        assertEquals(FrameReject.NONE, CommonHeader.check(b, 0, 16));
    }
}
