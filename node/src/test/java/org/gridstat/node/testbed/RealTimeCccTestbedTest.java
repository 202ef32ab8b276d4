package org.gridstat.node.testbed;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The CCC testbed with congestion control on, in real time on loopback (a broker, four status
 * routers, client publishers and a subscriber) four times faster than the scenario (25 s of wall
 * time, 30 s with starting), beside the simulator's run of the same scaled scenario. Timing on a
 * shared machine decides it, so it runs only with {@code -Dgridstat.realtime=true} in the test
 * JVM ({@code mvn -o -pl node -am test -Dtest=RealTimeCccTestbedTest -DargLine=-Dgridstat.realtime=true ...}).
 *
 * <p>What it holds: in every interval the HRT streams miss as the simulator says within
 * {@link #TOLERANCE_POINTS} ({@link #LAST_INTERVAL_POINTS} in 90-100 s), and at most that share
 * until 90 s, while the bottleneck can carry them. In 90-100 s the overlay's reassignment finds B's
 * need 5,298 B/s (scaled) short of what the victims can lend at their minimum rates; the simulator
 * serves B all the same, the real run missed 1.7 % to 8.7 % of B's samples there in four runs.
 */
@EnabledIfSystemProperty(named = "gridstat.realtime", matches = "true")
class RealTimeCccTestbedTest {
    /** Time scale: the 101 s scenario in 25.25 s. */
    private static final double K = 4;
    /**
     * How far the real run's HRT misses may be from the simulator's in one interval, in percentage
     * points (12 to 36 samples of the 400 to 1,200 a stream offers there): the real run's samples
     * wait for threads that a loaded two-core machine wakes late (about a hundred samples of the
     * run's 15,000 go out over a millisecond late), and its estimator periods do not start on the
     * simulator's instants.
     */
    private static final double TOLERANCE_POINTS = 3;
    /** The same in 90-100 s, where the real run serves B-HRT short (see above). */
    private static final double LAST_INTERVAL_POINTS = 10;

    @Test
    void hrtMissesAgreeWithTheSimulatorPerInterval() throws Exception {
        CccComparison.Outcome o = CccComparison.run(true, K, System.out);
        System.out.print(CccComparison.markdown(o));
        o.real().admissions().forEach((stream, a) -> assertEquals("admitted", a, stream));
        for (String stream : new String[] {"A-HRT", "B-HRT"}) {
            for (long from : new long[] {0, 40, 60, 80, 90}) {
                CccComparison.Line l = o.line(stream, from);
                String where = stream + " " + l.fromSeconds() + "-" + l.toSeconds() + " s";
                assertTrue(l.real().offered() > 0.95 * l.simOffered(), where + ": the publisher kept its rate");
                assertEquals(0, l.differencePoints(), from == 90 ? LAST_INTERVAL_POINTS : TOLERANCE_POINTS,
                        where + ": real and simulated misses");
                if (from < 90) { // the bottleneck carries both HRT flows until they go to 60 Hz
                    assertTrue(l.real().missRatio() <= TOLERANCE_POINTS / 100, where + ": HRT misses nearly nothing, got "
                            + l.real().missRatio());
                }
            }
        }
    }
}
