package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.ChannelName;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.gridstat.gateway.shaping.ShapingSettings;
import org.junit.jupiter.api.Test;

/** What the ingest publishes, and what a misbehaving device cannot make it do. */
class DevicePublisherTest {
    private static final long S = 1_000_000_000L;
    private final ManualClock clock = new ManualClock(1_700_000_100L * S);

    private static PmuSimSpec spec(String station, int cfgcnt) {
        return new PmuSimSpec(7, 2, 50, 1_000_000, List.of(new SimulatedPmu(station, 7,
                DataFormat.of(true, true, true, true), 6, 2, 1, NominalFrequency.HZ_60)), cfgcnt);
    }

    private DevicePublisher publisher(Publisher p, DeviceCounters counters) {
        return new DevicePublisher("pmu", "u/s", ServiceClass.HRT, Duration.ofMillis(50), Duration.ofSeconds(1), p,
                Declarations.NONE, ShapingSettings.OFF, clock, (t, d) -> { }, counters);
    }

    @Test
    void aDeviceFlippingBetweenConfigurationsReusesItsPublicationsAndOneRenamingItsStationsIsStopped() throws Exception {
        try (DatagramSocket router = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             Publisher p = Publisher.connect((InetSocketAddress) router.getLocalSocketAddress())) {
            DevicePublisher sink = publisher(p, new DeviceCounters("pmu"));
            for (int i = 0; i < 5_000; i++) {
                sink.configuration(PmuSimulator.configFor(spec("PMU-1", 1 + i % 2))); // same names, same interval
            }
            int renamed = 0;
            try {
                for (int i = 0; i < 5_000; i++) {
                    sink.configuration(PmuSimulator.configFor(spec("RENAMED-" + i, 1)));
                    renamed++;
                }
                fail("a device renaming its station for ever makes publications for ever");
            } catch (IllegalStateException e) {
                assertTrue(e.getMessage().contains("1024 publications"), e.getMessage());
            }
            assertEquals((DevicePublisher.MAX_PUBLICATIONS - 2) / 2, renamed,
                    "two publications per new station name, beside the first configuration's two");
        }
    }

    @Test
    void aPrefixWhoseDescriptionsCouldNotBeNamedIsRefusedAtStart() throws Exception {
        try (DatagramSocket router = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             Publisher p = Publisher.connect((InetSocketAddress) router.getLocalSocketAddress())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DevicePublisher("pmu",
                    "p".repeat(DevicePublisher.MAX_PREFIX + 1), ServiceClass.HRT, null, Duration.ofSeconds(1), p,
                    Declarations.NONE));
            assertTrue(e.getMessage().contains("at most " + DevicePublisher.MAX_PREFIX), e.getMessage());
            // the longest prefix with the longest station still names its description
            DevicePublisher longest = new DevicePublisher("pmu", "p".repeat(DevicePublisher.MAX_PREFIX), ServiceClass.HRT,
                    null, Duration.ofSeconds(1), p, Declarations.NONE);
            longest.configuration(PmuSimulator.configFor(spec("ABCDEFGHIJKLMNOP", 1)));
        }
    }

    @Test
    void descriptionsKeepGoingOutEverySecondWhenThePmusClockStepsBack() throws Exception {
        PmuSimSpec spec = spec("PMU-1", 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        DataLayout layout = DataLayout.of(cfg);
        try (DatagramSocket router = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             Publisher p = Publisher.connect((InetSocketAddress) router.getLocalSocketAddress())) {
            DevicePublisher sink = publisher(p, new DeviceCounters("pmu"));
            sink.configuration(cfg);
            DataFrameReader r = new DataFrameReader();
            long soc = 1_700_000_090L;
            long samples = 0;
            for (int k = 0; k < 600; k++) { // 12 s of frames at 50 a second; the PMU's clock steps back 20 s at 2 s
                long at = soc + k / 50 - (k >= 100 ? 20 : 0);
                byte[] f = PmuSimulator.dataFrame(spec, cfg, at, (k % 50) * 20_000, 0);
                assertEquals(FrameReject.NONE, r.wrap(layout, ByteBuffer.wrap(f), 0, f.length));
                sink.data(r);
                samples++;
                clock.advance(S / 50);
            }
            long descriptions = p.sent() - samples;
            assertEquals(12, descriptions, "one a second of the gateway's time, through the step");
        }
    }

    @Test
    void everyPmuOfAStreamGetsAVariableOfItsOwn() {
        List<String> names = VariableNames.samples("u/s", List.of(pmu("pmu-8", 1), pmu("", 8), pmu("", 8), pmu("A B", 3),
                pmu("A_B", 4)));
        assertEquals(List.of("u/s/pmu-8", "u/s/pmu-8-2", "u/s/pmu-8-3", "u/s/A_B", "u/s/pmu-4"), names);
    }

    private static PmuConfig pmu(String station, int id) {
        return new PmuConfig(ChannelName.fixed(station), id, DataFormat.of(true, true, true, true), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), NominalFrequency.HZ_60, 1);
    }
}
