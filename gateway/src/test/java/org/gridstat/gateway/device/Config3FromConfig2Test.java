package org.gridstat.gateway.device;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.gridstat.gateway.c37118.AnnexFrames;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.Config3FrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PhasorScale;
import org.gridstat.gateway.c37118.config.Pmu3Config;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.junit.jupiter.api.Test;

class Config3FromConfig2Test {
    @Test
    void readsEveryFormatsDataFramesToTheSameValuesAsTheConfig2() {
        for (int f = 0; f < 16; f++) {
            DataFormat format = new DataFormat(f);
            ConfigFrame cfg2 = SampleConfigs.config(FrameType.CONFIG_2, 2, 9, List.of(
                    SampleConfigs.pmu(1, format, 4, 3, 2, NominalFrequency.HZ_50),
                    SampleConfigs.pmu(2, new DataFormat(15 - f), 2, 2, 1, NominalFrequency.HZ_60)), 25);
            Config3Frame cfg3 = Config3FromConfig2.derive(cfg2);
            byte[] encoded = Config3FrameCodec.encode(cfg3);
            assertEquals(cfg3, new Config3FrameCodec().decode(ByteBuffer.wrap(encoded), 0, encoded.length).frame());
            assertSameValues(cfg2, cfg3, new Random(f));
        }
    }

    @Test
    void readsTheAnnexStreamToTheSameValues() {
        byte[] b = AnnexFrames.bytes(AnnexFrames.CONFIG_2_TWO_PMUS);
        ConfigFrame cfg2 = new ConfigFrameCodec().decode(ByteBuffer.wrap(b), 0, b.length).frame();
        assertSameValues(cfg2, Config3FromConfig2.derive(cfg2), new Random(7));
    }

    private static void assertSameValues(ConfigFrame cfg2, Config3Frame cfg3, Random random) {
        DataLayout l2 = DataLayout.of(cfg2);
        DataLayout l3 = DataLayout.of(cfg3);
        assertEquals(l2.frameSize(), l3.frameSize());
        for (int round = 0; round < 50; round++) {
            ByteBuffer frame = ByteBuffer.allocate(l2.frameSize());
            DataFrameWriter w = new DataFrameWriter().wrap(l2, frame, 0, 2, 1_700_000_000L, round);
            for (int p = 0; p < l2.pmuCount(); p++) {
                boolean floats = l2.format(p).floatPhasors();
                for (int i = 0; i < l2.phasorCount(p); i++) {
                    w.phasor(p, i, floats ? Float.floatToRawIntBits(random.nextFloat() * 1e5f) : random.nextInt(0x10000),
                            floats ? Float.floatToRawIntBits(random.nextFloat() * 6 - 3) : random.nextInt(0x10000));
                }
                for (int i = 0; i < l2.analogCount(p); i++) {
                    w.analog(p, i, l2.format(p).floatAnalogs() ? Float.floatToRawIntBits(random.nextFloat() * 100) : random.nextInt(0x10000));
                }
                w.frequency(p, random.nextInt(0x10000)).rocof(p, random.nextInt(0x10000));
            }
            w.seal();
            DataFrameReader r2 = new DataFrameReader();
            DataFrameReader r3 = new DataFrameReader();
            assertEquals(FrameReject.NONE, r2.wrap(l2, frame, 0, l2.frameSize()));
            assertEquals(FrameReject.NONE, r3.wrap(l3, frame, 0, l3.frameSize()));
            for (int p = 0; p < l2.pmuCount(); p++) {
                for (int i = 0; i < l2.phasorCount(p); i++) {
                    double tolerance = 1e-6 * Math.max(1, r2.phasorMagnitude(p, i));
                    assertEquals(r2.phasorReal(p, i), r3.phasorReal(p, i), tolerance);
                    assertEquals(r2.phasorImaginary(p, i), r3.phasorImaginary(p, i), tolerance);
                    assertEquals(r2.phasorMagnitude(p, i), r3.phasorMagnitude(p, i), tolerance);
                }
                for (int i = 0; i < l2.analogCount(p); i++) {
                    assertEquals(r2.analog(p, i), r3.analog(p, i), 1e-6 * Math.max(1, Math.abs(r2.analog(p, i))));
                }
                assertEquals(r2.frequency(p), r3.frequency(p));
                assertEquals(r2.rocof(p), r3.rocof(p));
                for (int i = 0; i < l2.digitalCount(p); i++) {
                    assertEquals(r2.digital(p, i), r3.digital(p, i));
                }
            }
        }
    }

    @Test
    void carriesNamesUnpaddedAndMarksWhatCfg2DoesNotKnow() {
        ConfigFrame cfg2 = SampleConfigs.config(DataFormat.of(false, false, false, false));
        Pmu3Config p = Config3FromConfig2.derive(cfg2).pmus().get(0);
        assertEquals(ChannelName.prefixed("PMU 60"), p.station());
        assertEquals(ChannelName.prefixed("PH0"), p.phasorNames().get(0));
        assertEquals(ChannelName.prefixed("D0.15"), p.digitalNames().get(15));
        assertEquals(new UUID(0, 0), p.globalId());
        assertEquals(Float.POSITIVE_INFINITY, p.latitude());
        assertEquals(Float.POSITIVE_INFINITY, p.longitude());
        assertEquals(Float.POSITIVE_INFINITY, p.elevation());
        assertEquals('P', p.serviceClass());
        assertEquals(0, p.window());
        assertEquals(0, p.groupDelay());
        assertEquals(cfg2.pmus().get(0).configCount(), p.configCount());
        assertEquals(cfg2.pmus().get(0).digitalUnits(), p.digitalUnits());
        PhasorScale voltage = p.phasorScales().get(0);
        PhasorScale current = p.phasorScales().get(1);
        assertFalse(voltage.current());
        assertTrue(current.current());
        assertEquals(9.15527f, voltage.scale(), 1e-6f);
        assertEquals(0f, voltage.angleAdjustment());
        assertEquals(0, voltage.flags());
        assertEquals(3f, p.analogScales().get(0).scale());
        assertEquals(-2f, p.analogScales().get(1).scale());
        assertEquals(0f, p.analogScales().get(1).offset());
    }
}
