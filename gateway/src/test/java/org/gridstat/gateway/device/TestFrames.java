package org.gridstat.gateway.device;

import java.nio.ByteBuffer;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;

/** Frames for server tests: commands, and numbered data frames that differ from one another. */
final class TestFrames {
    private TestFrames() {
    }

    static byte[] command(int idCode, int code) {
        return CommandFrameCodec.encode(new CommandFrame(2, idCode, 1_700_000_000L, 0, code));
    }

    static byte[] command(int code) {
        return command(TestStream.ID_CODE, code);
    }

    /** Data frame number {@code n} under {@code cfg}: its time and first values say which it is. */
    static byte[] data(ConfigFrame cfg, int n) {
        DataLayout layout = DataLayout.of(cfg);
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        DataFrameWriter w = new DataFrameWriter().wrap(layout, b, 0, cfg.version(), 1_700_000_000L + n / 30,
                FracSec.of(0, (n % 30) * 33_333));
        for (int p = 0; p < layout.pmuCount(); p++) {
            w.stat(p, n & 0x3F);
            for (int i = 0; i < layout.phasorCount(p); i++) {
                w.phasor(p, i, n * 7 + i, n * 13 - i);
            }
            w.frequency(p, n).rocof(p, -n);
            for (int i = 0; i < layout.analogCount(p); i++) {
                w.analog(p, i, n + i);
            }
            for (int i = 0; i < layout.digitalCount(p); i++) {
                w.digital(p, i, n ^ i);
            }
        }
        w.seal();
        return b.array();
    }

    static FrameType type(byte[] frame) {
        return CommonHeader.type(ByteBuffer.wrap(frame), 0);
    }
}
