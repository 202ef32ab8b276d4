package org.gridstat.gateway.mapping;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/** Streams, data frames with random values and the samples cut from them, for the mapping and egress tests. */
public final class SampleFrames {
    private SampleFrames() {
    }

    public static ConfigFrame stream(int version, int idCode, int timeBase, List<PmuConfig> pmus) {
        return new ConfigFrame(FrameType.CONFIG_2, version, idCode, SampleConfigs.SOC, 0, timeBase, pmus, 30);
    }

    /** A frame with random values in every field (NaN patterns and 0x8000 words among them). */
    public static byte[] randomFrame(DataLayout layout, int version, long soc, int fracSec, Random random) {
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        DataFrameWriter w = new DataFrameWriter().wrap(layout, b, 0, version, soc, fracSec);
        for (int p = 0; p < layout.pmuCount(); p++) {
            w.stat(p, random.nextInt());
            for (int i = 0; i < layout.phasorCount(p); i++) {
                w.phasor(p, i, pick(random), pick(random));
            }
            w.frequency(p, pick(random)).rocof(p, pick(random));
            for (int i = 0; i < layout.analogCount(p); i++) {
                w.analog(p, i, pick(random));
            }
            for (int i = 0; i < layout.digitalCount(p); i++) {
                w.digital(p, i, random.nextInt());
            }
        }
        w.seal();
        return b.array();
    }

    private static int pick(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0x7FA0_0001;
            case 1 -> 0x8000;
            default -> random.nextInt();
        };
    }

    /** The sample of {@code pmu} cut from a frame. */
    public static byte[] sample(DataLayout layout, byte[] frame, int pmu, int configCount) {
        DataFrameReader reader = new DataFrameReader();
        if (reader.wrap(layout, ByteBuffer.wrap(frame), 0, frame.length) != FrameReject.NONE) {
            throw new IllegalArgumentException("not a frame of the layout");
        }
        byte[] out = new byte[(int) PmuSample.length(layout, pmu)];
        int n = PmuSample.encode(reader, pmu, configCount, out, 0);
        if (n != out.length) {
            throw new AssertionError(n + " bytes written, " + out.length + " expected");
        }
        return out;
    }

    /** Where the PMU's block lies in a frame of the layout. */
    public static int blockOffset(DataLayout layout, int pmu) {
        int at = CommonHeader.LENGTH;
        for (int p = 0; p < pmu; p++) {
            at += blockLength(layout, p);
        }
        return at;
    }

    public static int blockLength(DataLayout layout, int pmu) {
        return (int) layout.format(pmu).pmuDataSize(layout.phasorCount(pmu), layout.analogCount(pmu), layout.digitalCount(pmu));
    }

    public static byte[] block(DataLayout layout, byte[] frame, int pmu) {
        int at = blockOffset(layout, pmu);
        return Arrays.copyOfRange(frame, at, at + blockLength(layout, pmu));
    }
}
