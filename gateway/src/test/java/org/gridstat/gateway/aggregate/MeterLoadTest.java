package org.gridstat.gateway.aggregate;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * 200 simulated meters over loopback into one meter server, the server's clocks manual: every
 * reading sent is accounted for (folded, or dropped under a counted reason), and the aggregates'
 * meter counts and sums are what the meters sent, region by region, interval by interval, in order.
 */
class MeterLoadTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_800_000_000L * S;
    private static final int METERS = 200;
    private static final int REGIONS = 4;
    private static final long FIRST_ID = 1_000;

    @Test
    void everyReadingOfTwoHundredMetersIsAccountedFor() throws Exception {
        ManualClock clock = new ManualClock(T0 + 500 * MS);
        RecordingSink sink = new RecordingSink();
        MeterServerSettings settings = MeterServerSettings.at(new InetSocketAddress("127.0.0.1", 0)).withIoThreads(2);
        MeterServer server = MeterServer.start(settings, sink, clock, clock);
        MeterCounters c = server.counters();
        try (MeterLoad load = new MeterLoad(server.address(), METERS, REGIONS, FIRST_ID, 2)) {
            assertEquals(METERS, load.connect(Duration.ofSeconds(20)));
            Eventually.until("every hello", () -> c.get(MeterCounter.HELLOS) == METERS, c::snapshot);
            assertEquals(METERS, server.connections());

            // three rounds, one a second: every meter reports in intervals T0+1, T0+2, T0+3
            for (int k = 1; k <= 3; k++) {
                clock.set(T0 + k * S + 100 * MS);
                load.round((T0 + k * S + 100 * MS) / 1000);
                long want = (long) k * METERS;
                Eventually.until("round " + k, () -> c.get(MeterCounter.READINGS_ACCEPTED) == want, c::snapshot);
            }
            clock.set(T0 + 5 * S); // T0+3 ends at T0+4, plus the 1 s grace
            Eventually.until("three intervals of four regions", () -> sink.snapshot().size() == 3 * REGIONS);

            // a round stamped in a closed interval is late; a second reading in one interval is repeated
            load.round((T0 + S + 500 * MS) / 1000);
            Eventually.until("late", () -> c.get(MeterCounter.READINGS_LATE) == METERS, c::snapshot);
            clock.set(T0 + 5 * S + 200 * MS);
            load.round((T0 + 5 * S + 100 * MS) / 1000);
            load.round((T0 + 5 * S + 150 * MS) / 1000);
            Eventually.until("repeated", () -> c.get(MeterCounter.READINGS_REPEATED) == METERS, c::snapshot);
            Eventually.until("accepted", () -> c.get(MeterCounter.READINGS_ACCEPTED) == 4 * METERS, c::snapshot);

            long sent = load.sent();
            assertEquals(6 * METERS, sent);
            assertEquals(0, load.failed());
            long accounted = c.get(MeterCounter.READINGS_ACCEPTED) + c.get(MeterCounter.READINGS_LATE)
                    + c.get(MeterCounter.READINGS_REPEATED) + c.get(MeterCounter.READINGS_AHEAD)
                    + c.get(MeterCounter.READINGS_FORGOTTEN) + c.get(MeterCounter.READINGS_BEFORE_HELLO)
                    + c.get(MeterCounter.RECORDS_REJECTED);
            assertEquals(sent, accounted, "accepted plus counted drops is what was sent");
            assertEquals(0, c.get(MeterCounter.RECORDS_REJECTED));
            assertEquals(0, c.get(MeterCounter.BYTES_SKIPPED));
            assertEquals(0, c.get(MeterCounter.PAUSES), "one reading a second is well within the allowance");

            List<RecordingSink.Emitted> out = sink.snapshot();
            assertEquals(3 * REGIONS, out.size(), "nothing more until T0+5's interval is due");
            for (int k = 0; k < 3; k++) {
                for (int r = 0; r < REGIONS; r++) {
                    RecordingSink.Emitted e = out.get(k * REGIONS + r);
                    assertEquals(r, e.regionId(), "regions in order within an interval");
                    assertEquals(T0 + (k + 1) * S, e.startNanos(), "intervals in order");
                    AggregatePayload v = e.view();
                    assertEquals(METERS / REGIONS, v.expected());
                    assertEquals(METERS / REGIONS, v.reporting());
                    assertEquals(0, v.missing());
                    assertEquals(0, v.flags());
                    double p = 0;
                    double q = 0;
                    float vmax = Float.NEGATIVE_INFINITY;
                    for (int i = r; i < METERS; i += REGIONS) {
                        long id = FIRST_ID + i;
                        p += MeterLoad.activePower(id);
                        q += MeterLoad.reactivePower(id);
                        vmax = Math.max(vmax, MeterLoad.voltage(id));
                    }
                    assertEquals(METERS / REGIONS, v.count(ValueKind.ACTIVE_POWER));
                    assertEquals(p, v.sum(ValueKind.ACTIVE_POWER));
                    assertEquals(q, v.sum(ValueKind.REACTIVE_POWER));
                    assertEquals(vmax, v.max(ValueKind.VOLTAGE));
                }
            }
        }
        Eventually.until("every connection closed", () -> server.connections() == 0, c::snapshot);
        assertEquals(METERS, c.get(MeterCounter.CONNECTIONS_CLOSED));
        assertEquals(0, c.get(MeterCounter.BYTES_UNREAD_AT_CLOSE));

        server.close(); // emits T0+4 (everyone missing) and T0+5, flagged as closed early
        List<RecordingSink.Emitted> out = sink.snapshot();
        assertEquals(5 * REGIONS, out.size());
        long reportingEarly = 0;
        for (RecordingSink.Emitted e : out.subList(3 * REGIONS, out.size())) {
            AggregatePayload v = e.view();
            assertEquals(AggregatePayload.FLAG_CLOSED_EARLY, v.flags() & AggregatePayload.FLAG_CLOSED_EARLY);
            reportingEarly += v.reporting();
            if (e.startNanos() == T0 + 4 * S) {
                assertEquals(METERS / REGIONS, v.missing());
            }
        }
        assertEquals(METERS, reportingEarly);
        assertEquals(5 * REGIONS, server.aggregatorStatus().emitted());
    }
}
