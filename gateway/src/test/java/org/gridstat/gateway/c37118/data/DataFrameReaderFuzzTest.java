package org.gridstat.gateway.c37118.data;

import static org.junit.jupiter.api.Assertions.*;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Whatever bytes arrive as a data frame, the reader answers a reason and never throws; a frame it
 * accepts reads without error in raw and engineering units and copies field by field into the
 * same bytes. The first byte picks one of 16 layouts (one per FORMAT, three PMUs, CFG-2 or CFG-3
 * scaling); the input is also tried with its header, size and CRC made to fit that layout.
 */
class DataFrameReaderFuzzTest {
    private static final DataLayout[] LAYOUTS = new DataLayout[16];

    static {
        for (int f = 0; f < 16; f++) {
            LAYOUTS[f] = f % 2 == 0
                    ? DataLayout.of(SampleConfigs.config(FrameType.CONFIG_2, 2, 9, List.of(
                            SampleConfigs.pmu(9, new DataFormat(f), 2, 1, 1, NominalFrequency.HZ_60),
                            SampleConfigs.pmu(10, new DataFormat(15 - f), 1, 0, 0, NominalFrequency.HZ_50),
                            SampleConfigs.pmu(11, new DataFormat(f ^ 5), 0, 2, 1, NominalFrequency.HZ_60)), 30))
                    : DataLayout.of(SampleConfigs.config3(new DataFormat(f)));
        }
    }

    private final DataFrameReader reader = new DataFrameReader();
    private final DataFrameWriter writer = new DataFrameWriter();

    @FuzzTest(maxDuration = "10s")
    void readArbitraryDataFrames(byte[] data) {
        if (data.length == 0) {
            return;
        }
        DataLayout layout = LAYOUTS[data[0] & 0x0F];
        byte[] frame = Arrays.copyOfRange(data, 1, data.length);
        check(layout, frame);
        byte[] fitted = Arrays.copyOf(frame, layout.frameSize());
        ByteBuffer b = ByteBuffer.wrap(fitted);
        b.put(0, (byte) 0xAA).put(1, (byte) ((data[0] & 0x10) == 0 ? 0x01 : 0x02))
                .putShort(2, (short) fitted.length).putShort(4, (short) layout.idCode());
        CommonHeader.seal(b, 0, fitted.length);
        assertEquals(FrameReject.NONE, check(layout, fitted));
    }

    private FrameReject check(DataLayout layout, byte[] frame) {
        FrameReject r = reader.wrap(layout, ByteBuffer.wrap(frame), 0, frame.length);
        assertNotNull(r);
        if (r != FrameReject.NONE) {
            return r;
        }
        ByteBuffer out = ByteBuffer.allocate(frame.length);
        writer.wrap(layout, out, 0, reader.version(), reader.soc(), reader.fracSec());
        double sink = reader.fractionNanos();
        for (int p = 0; p < reader.pmuCount(); p++) {
            writer.stat(p, reader.stat(p));
            for (int i = 0; i < layout.phasorCount(p); i++) {
                writer.phasor(p, i, reader.phasorFirstRaw(p, i), reader.phasorSecondRaw(p, i));
                sink += reader.phasorReal(p, i) + reader.phasorImaginary(p, i) + reader.phasorMagnitude(p, i)
                        + reader.phasorAngle(p, i);
            }
            writer.frequency(p, reader.frequencyRaw(p)).rocof(p, reader.rocofRaw(p));
            sink += reader.frequency(p) + reader.rocof(p);
            for (int i = 0; i < layout.analogCount(p); i++) {
                writer.analog(p, i, reader.analogRaw(p, i));
                sink += reader.analog(p, i);
            }
            for (int i = 0; i < layout.digitalCount(p); i++) {
                writer.digital(p, i, reader.digital(p, i));
            }
        }
        writer.seal();
        assertArrayEquals(frame, out.array());
        assertFalse(sink == Double.MIN_VALUE && sink != sink);
        return r;
    }
}
