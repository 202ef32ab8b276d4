package org.gridstat.gateway.ingest;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.time.ManualClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.gridstat.gateway.shaping.ShapingSettings;
import org.junit.jupiter.api.Test;

/** A PDC's backlog handed to the publisher at once leaves paced at the PMU's reservation. */
class DevicePublisherShapingTest {
    private static final long S = 1_000_000_000L;

    private record Task(long at, Runnable run) {
    }

    @Test
    void aBacklogIsPublishedAtTheReservationNotAllAtOnce() throws Exception {
        ManualClock clock = new ManualClock(5 * S);
        PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
        PmuSimSpec spec = new PmuSimSpec(3, 2, 50, 1_000_000, List.of(new SimulatedPmu("S", 3,
                DataFormat.of(true, true, true, true), 3, 1, 1, NominalFrequency.HZ_50)), 1);
        ConfigFrame cfg = PmuSimulator.configFor(spec);
        DeviceCounters counters = new DeviceCounters("pdc");
        try (DatagramSocket router = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             Publisher publisher = Publisher.connect((InetSocketAddress) router.getLocalSocketAddress())) {
            DevicePublisher p = new DevicePublisher("pdc", "u/s", ServiceClass.HRT, Duration.ofMillis(50),
                    Duration.ofSeconds(1), publisher, Declarations.NONE, ShapingSettings.DEFAULT, clock,
                    (task, delay) -> tasks.add(new Task(clock.nanoTime() + delay, task)), counters);
            p.configuration(cfg);
            DataLayout layout = DataLayout.of(cfg);
            DataFrameReader reader = new DataFrameReader();
            long soc = 1_700_000_000L;
            for (int k = 0; k < 20; k++) { // 20 frames, 0.4 s of data, arriving at one instant
                byte[] f = PmuSimulator.dataFrame(spec, cfg, soc, k * 20_000, 0);
                assertEquals(org.gridstat.gateway.c37118.frame.FrameReject.NONE, reader.wrap(layout, ByteBuffer.wrap(f), 0, f.length));
                p.data(reader);
            }
            long description = 1; // one description part goes with the first sample
            assertEquals(3 + description, publisher.sent(), "the bucket's two frames and one more go at once");
            assertEquals(17, counters.get(DeviceCounter.SHAPING_DELAYED));
            List<Long> departures = new ArrayList<>();
            long start = clock.nanoTime();
            while (!tasks.isEmpty()) {
                Task t = tasks.poll();
                clock.set(Math.max(clock.nanos(), t.at));
                long before = publisher.sent();
                t.run.run();
                for (long i = before; i < publisher.sent(); i++) {
                    departures.add(clock.nanoTime() - start);
                }
            }
            assertEquals(20 + description, publisher.sent(), "every sample published, none dropped");
            assertEquals(0, counters.get(DeviceCounter.SHAPING_DROPPED));
            for (int i = 0; i < departures.size(); i++) {
                // one frame's worth of tokens every 20 ms, the PMU's interval: its reservation
                long expected = (i + 1) * S / 50;
                assertTrue(Math.abs(departures.get(i) - expected) <= 1, "departure " + i + " at " + departures.get(i));
            }
        }
    }
}
