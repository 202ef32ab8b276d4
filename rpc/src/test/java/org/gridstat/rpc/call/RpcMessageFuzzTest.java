package org.gridstat.rpc.call;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.gridstat.rpc.transport.FrameReject;
import org.gridstat.rpc.transport.TransportFrame;

/**
 * Neither the 2WoPS frame decoder nor the Ratatoskr message decoder throws on any bytes; a message
 * that decodes encodes back to the same bytes.
 */
class RpcMessageFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decodeArbitraryBytes(byte[] data) {
        TransportFrame f = new TransportFrame();
        FrameReject r = f.decode(data, 0, data.length);
        assertNotNull(r);
        if (r == FrameReject.NONE) {
            assertEquals(data.length - TransportFrame.HEADER_LENGTH, f.payloadLength());
        }
        RpcCodec.Decoded d = RpcCodec.decode(data, 0, data.length);
        assertNotNull(d);
        if (d.ok()) {
            assertArrayEquals(data, RpcCodec.encode(d.message()));
        } else {
            assertNotNull(d.error());
        }
    }
}
