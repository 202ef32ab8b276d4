package org.gridstat.gateway.c37118.config;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.junit.jupiter.api.Test;

class HeaderFrameCodecTest {
    @Test
    void decodesAndReencodesTheAnnexHeader() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.HEADER);
        HeaderFrame h = HeaderFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).frame();
        assertEquals("Hello I'm Header Frame.", h.text());
        assertEquals(7734, h.idCode());
        assertEquals(1_149_591_600L, h.soc());
        assertEquals(770_000, FracSec.fraction(h.fracSec()));
        assertEquals(15, FracSec.qualityCode(h.fracSec()));
        assertArrayEquals(f, HeaderFrameCodec.encode(h));
    }

    @Test
    void roundTripsEmptyAndEightBitText() {
        for (String text : new String[] {"", "\u00ff\u0000\u00aa binary-ish"}) {
            for (int version = 1; version <= 2; version++) {
                HeaderFrame h = new HeaderFrame(version, 1, 2, 3, text);
                byte[] f = HeaderFrameCodec.encode(h);
                assertEquals(h, HeaderFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).frame());
            }
        }
    }

    @Test
    void refusesOtherFrames() {
        byte[] f = AnnexFrames.bytes(AnnexFrames.COMMAND_DATA_ON);
        assertEquals(FrameReject.WRONG_FRAME_TYPE, HeaderFrameCodec.decode(ByteBuffer.wrap(f), 0, f.length).reject());
    }
}
