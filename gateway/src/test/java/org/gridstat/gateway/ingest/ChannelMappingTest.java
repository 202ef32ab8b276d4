package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.gridstat.gateway.shaping.ShapingSettings;
import org.junit.jupiter.api.Test;

/** The channel mapping: each channel of a PMU a variable of its own, its value in engineering units and the STAT word. */
class ChannelMappingTest {
    private static final long S = 1_000_000_000L;

    @Test
    void eachChannelArrivesAsItsValueInEngineeringUnitsWithTheStatWord() throws Exception {
        PmuSimSpec spec = new PmuSimSpec(7, 2, 50, 1_000_000, List.of(new SimulatedPmu("SUB A", 7,
                DataFormat.of(false, false, false, false), 3, 1, 1, NominalFrequency.HZ_50)), 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        List<PmuChannels.Channel> channels = PmuChannels.of("u/s/SUB_A", cfg.pmus().get(0));
        assertEquals(List.of("u/s/SUB_A/VA", "u/s/SUB_A/VB", "u/s/SUB_A/VC", "u/s/SUB_A/FREQ", "u/s/SUB_A/DFREQ",
                        "u/s/SUB_A/ANALOG1", "u/s/SUB_A/DIGITAL1"),
                channels.stream().map(PmuChannels.Channel::variable).toList());
        Map<Long, float[]> got = new ConcurrentHashMap<>();
        ManualClock clock = new ManualClock(1_700_000_000L * S);
        try (Subscriber sub = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> {
                float[] v = new float[e.floatCount()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = e.floatAt(i);
                }
                got.put(e.variableId(), v);
            });
             Publisher publisher = Publisher.connect(sub.localAddress())) {
            DevicePublisher p = new DevicePublisher("pmu", "u/s", ServiceClass.HRT, Duration.ofMillis(50),
                    Duration.ofSeconds(1), publisher, Declarations.NONE, ShapingSettings.OFF, clock, (t, d) -> { },
                    new DeviceCounters("pmu"), Mapping.CHANNELS);
            p.configuration(cfg);
            DataLayout layout = DataLayout.of(cfg);
            DataFrameReader r = new DataFrameReader();
            byte[] f = PmuSimulator.dataFrame(spec, cfg, 1_700_000_000L, 20_000, 1 << 13); // sync error in STAT
            assertEquals(FrameReject.NONE, r.wrap(layout, ByteBuffer.wrap(f), 0, f.length));
            p.data(r);
            long end = System.nanoTime() + 5 * S;
            while (got.size() < channels.size() && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            assertEquals(channels.size(), got.size(), "one event per channel, and no PMU sample: " + got.keySet());
            float stat = r.stat(0);
            assertArrayEquals(new float[] {(float) r.frequency(0), stat}, value(got, "u/s/SUB_A/FREQ"));
            assertArrayEquals(new float[] {(float) r.rocof(0), stat}, value(got, "u/s/SUB_A/DFREQ"));
            assertArrayEquals(new float[] {(float) r.phasorMagnitude(0, 1), (float) r.phasorAngle(0, 1), stat},
                    value(got, "u/s/SUB_A/VB"));
            assertArrayEquals(new float[] {(float) r.analog(0, 0), stat}, value(got, "u/s/SUB_A/ANALOG1"));
            assertArrayEquals(new float[] {r.digital(0, 0), stat}, value(got, "u/s/SUB_A/DIGITAL1"));
            assertEquals(1 << 13, (int) value(got, "u/s/SUB_A/FREQ")[1], "the STAT word travels with each value");
            assertTrue(Math.abs(value(got, "u/s/SUB_A/FREQ")[0] - 50) < 0.1, "a frequency near its 50 Hz nominal");
        }
    }

    private static float[] value(Map<Long, float[]> got, String variable) {
        return got.get(VariableId.ofName(VariableName.of(variable)).value());
    }
}
