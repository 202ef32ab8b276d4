package org.gridstat.gateway.mapping;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Whatever parts arrive, the assembler answers an outcome and never throws, and any description
 * it completes is a CFG-2 of one PMU. The input is a sequence of payloads, each behind a two-byte
 * length, offered between the two parts of a genuine description so the fuzzer's parts meet a
 * description being gathered.
 */
class DescriptionAssemblerFuzzTest {
    private static final int MAX_PAYLOAD = 300;
    private static final List<byte[]> GENUINE;

    static {
        byte[] f = AnnexFrames.bytes(AnnexFrames.CONFIG_2_ONE_PMU);
        ConfigFrame cfg = new ConfigFrameCodec().decode(ByteBuffer.wrap(f), 0, f.length).frame();
        GENUINE = PmuDescription.parts(cfg, MAX_PAYLOAD);
    }

    @FuzzTest(maxDuration = "10s")
    void acceptArbitraryParts(byte[] data) {
        DescriptionAssembler assembler = new DescriptionAssembler(MAX_PAYLOAD);
        offer(assembler, GENUINE.get(0));
        int i = 0;
        while (i + 2 <= data.length) {
            int n = Math.min(((data[i] & 0xFF) << 8 | (data[i + 1] & 0xFF)) % 400, data.length - i - 2);
            offer(assembler, Arrays.copyOfRange(data, i + 2, i + 2 + n));
            i += 2 + n;
        }
        offer(assembler, GENUINE.get(1));
        ConfigFrame d = assembler.description();
        if (d != null) {
            assertEquals(FrameType.CONFIG_2, d.type());
            assertEquals(1, d.pmus().size());
        }
        assertTrue(assembler.held() >= 0 && assembler.held() <= PmuDescription.MAX_PARTS);
    }

    private static void offer(DescriptionAssembler assembler, byte[] part) {
        PartOutcome outcome = assembler.accept(part, 0, part.length);
        assertNotNull(outcome);
        if (outcome == PartOutcome.COMPLETE) {
            assertNotNull(assembler.description());
        }
    }
}
