package org.gridstat.core.control;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Whatever a peer sends, the control decoder answers with a frame or a typed refusal and never
 * throws; what it accepts re-encodes to the very same bytes. Seed corpus in the resources folder
 * of the same name.
 */
class ControlCodecFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryBodies(byte[] body) {
        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
        assertNotNull(f);
        if (!f.valid()) {
            assertNotNull(f.reject());
            assertNotNull(f.detail());
            return;
        }
        byte[] again = ControlCodec.encode(f.sequence(), f.message());
        assertEquals(body.length, again.length - ControlCodec.LENGTH_PREFIX, "canonical length");
        for (int i = 0; i < body.length; i++) {
            assertEquals(body[i], again[i + ControlCodec.LENGTH_PREFIX], "byte " + i);
        }
    }
}
