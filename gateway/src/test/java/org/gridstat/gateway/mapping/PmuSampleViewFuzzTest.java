package org.gridstat.gateway.mapping;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.egress.OutputFrameBuilder;
import org.gridstat.gateway.egress.TimeKey;

/**
 * Whatever bytes arrive as a PMU sample, the view answers a reason and never throws; a sample it
 * accepts is rebuilt, through a data frame of its own shape, into the same block (by the output
 * builder and by a data frame writer). Random bytes rarely have a consistent header, so each input
 * is also tried with its kind, version, TIME_BASE, counts and length made to fit.
 */
class PmuSampleViewFuzzTest {
    private final PmuSampleView view = new PmuSampleView();

    @FuzzTest(maxDuration = "10s")
    void wrapArbitrarySamples(byte[] data) {
        check(data);
        if (data.length >= PmuSample.HEADER_LENGTH) {
            ByteBuffer b = ByteBuffer.wrap(data.clone());
            b.put(0, (byte) 1).put(1, (byte) (1 + (data[1] & 1)));
            if ((b.getInt(4) & 0x00FF_FFFF) == 0) {
                b.putInt(4, b.getInt(4) | 30);
            }
            int format = b.getShort(18) & 0xFFFF;
            int phasors = data[20] & 7;
            int analogs = data[22] & 7;
            int digitals = data[24] & 3;
            b.putShort(20, (short) phasors).putShort(22, (short) analogs).putShort(24, (short) digitals);
            int length = PmuSample.HEADER_LENGTH + (int) new DataFormat(format).pmuDataSize(phasors, analogs, digitals);
            byte[] fitted = Arrays.copyOf(b.array(), length);
            assertEquals(SampleReject.OK, check(fitted));
        }
    }

    private SampleReject check(byte[] data) {
        SampleReject r = view.wrap(data, 0, data.length);
        assertNotNull(r);
        assertNotEquals(SampleReject.SHAPE_MISMATCH, r);
        if (r != SampleReject.OK) {
            return r;
        }
        assertEquals(data.length, view.length());
        assertTrue(view.sourceTimeNanos() >= 0);
        ConfigFrame cfg = SampleFrames.stream(view.version(), view.idCode(), view.timeBase(), List.of(SampleConfigs.pmu(
                view.idCode(), new DataFormat(view.format()), view.phasorCount(), view.analogCount(), view.digitalCount(),
                NominalFrequency.HZ_60)));
        OutputFrameBuilder builder = new OutputFrameBuilder(cfg);
        assertTrue(builder.fits(0, view));
        DataLayout layout = builder.layout();
        ByteBuffer frame = ByteBuffer.allocate(builder.frameSize());
        builder.build(TimeKey.of(view.soc(), view.fracSec(), view.timeBase(), cfg.timeBase()), new PmuSampleView[] {view}, frame, 0);
        byte[] block = Arrays.copyOfRange(data, PmuSample.HEADER_LENGTH, data.length);
        assertArrayEquals(block, SampleFrames.block(layout, frame.array(), 0));
        assertEquals(view.fracSec(), frame.getInt(10));

        ByteBuffer written = ByteBuffer.allocate(builder.frameSize());
        DataFrameWriter writer = new DataFrameWriter().wrap(layout, written, 0, view.version(), view.soc(), view.fracSec());
        view.writeTo(writer, 0);
        writer.seal();
        assertArrayEquals(frame.array(), written.array());
        assertArrayEquals(data, SampleFrames.sample(layout, frame.array(), 0, view.configCount()),
                "the frame cut into a sample again");
        return r;
    }
}
