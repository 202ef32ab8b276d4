package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.forward.SourceTimeTrust;
import org.gridstat.core.filter.SampleGrid;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/**
 * publisher → r1 → r2 → r3, a 60 Hz subscriber behind r2 and a 20 Hz one behind r3, on loopback.
 * Rate filtering is decided on source timestamps, so 10 s of 60 Hz samples can be sent quickly.
 */
class RouterChainTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_790_000_000L * S;

    @Test
    void eachSubscriberGetsItsRateAndTheSharedLinkCarriesSixtyHertzNotEighty() throws Exception {
        List<Long> at60 = new CopyOnWriteArrayList<>();
        List<Long> at20 = new CopyOnWriteArrayList<>();
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        try (Subscriber sub60 = Subscriber.open(any, e -> at60.add(e.sourceTimeNanos()));
             Subscriber sub20 = Subscriber.open(any, e -> at20.add(e.sourceTimeNanos()));
             DataPlane r3 = DataPlane.start(settings("r3",
                     new String[] {"name=sub20 address=127.0.0.1:" + sub20.localAddress().getPort()},
                     new String[] {"id=31 variable=1 link=sub20 class=HRT assured=20000 rates=20 publisher=60"}));
             DataPlane r2 = DataPlane.start(settings("r2",
                     new String[] {"name=sub60 address=127.0.0.1:" + sub60.localAddress().getPort(),
                         "name=r3 address=127.0.0.1:" + r3.localAddress().getPort()},
                     new String[] {"id=21 variable=1 link=sub60 class=HRT assured=20000 rates=60 publisher=60",
                         "id=22 variable=1 link=r3 class=HRT assured=20000 rates=20 publisher=60"}));
             DataPlane r1 = DataPlane.start(settings("r1",
                     new String[] {"name=r2 address=127.0.0.1:" + r2.localAddress().getPort()},
                     new String[] {"id=11 variable=1 link=r2 class=HRT assured=20000 rates=60,20 publisher=60"}));
             Publisher publisher = Publisher.connect(r1.localAddress())) {
            Publication p = publisher.publication(VariableId.of(1), ServiceClass.HRT, null);
            SampleGrid sixty = SampleGrid.ofRate(60);
            long t = T0;
            for (int i = 0; i < 600; i++, t = sixty.next(t)) {
                p.publish(60.0, t);
                if (i % 50 == 49) {
                    Thread.sleep(5);
                }
            }
            long deadline = System.nanoTime() + 10 * S;
            while ((at60.size() < 600 || at20.size() < 200) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(600, at60.size(), "the 60 Hz subscriber gets every sample");
            assertEquals(200, at20.size(), "the 20 Hz subscriber gets a third");
            // Nothing more can follow: the routers sent the subscribers exactly what they received.
            assertEquals(600, r2.counters().links().get("sub60").flow(21).queue().departures());
            assertEquals(200, r3.counters().forwarded(), "r3 sent its subscriber 200 copies, no more");
            SampleGrid twenty = SampleGrid.ofRate(20);
            for (long ts : at20) {
                assertEquals(ts, twenty.floor(ts), "20 Hz samples sit on the 20 Hz grid");
            }
            assertEquals(600, r1.counters().links().get("r2").flow(11).queue().departures(),
                    "r1 -> r2 carries 60 Hz (600 in 10 s), not 80 Hz (800)");
            assertEquals(200, r2.counters().links().get("r3").flow(22).queue().departures(), "r2 -> r3 carries 20 Hz");
            assertEquals(400, r2.counters().engine().filtered());
            assertEquals(3, at60.size() / at20.size());
        }
    }

    private static RouterSettings settings(String id, String[] links, String[] flows) {
        // The test replays a fixed 10 s timeline faster than real time: trust its timestamps.
        return RouterSettings.of(id, "127.0.0.1:0", 1, "auto", 1 << 20, links, flows, new String[0], S, 0.5, 64)
                .trusting(new SourceTimeTrust(Long.MAX_VALUE, Long.MAX_VALUE));
    }
}
