package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.gridstat.node.Distribution;
import org.gridstat.node.bench.BenchRun;
import org.junit.jupiter.api.Test;

/**
 * {@code gridstat bench} in miniature: it runs against a real router node and the plain relay and
 * reports every row. It checks the bench works, not how fast anything is: speed is measured by
 * hand (docs/BENCHMARKS.md), never asserted.
 */
class BenchSmokeTest {
    @Test
    void benchRunsBothTargetsAndReportsEveryRow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<BenchRun.Result> results = new BenchRun(Distribution.bundles(),
                new BenchRun.Settings(0.2, 0.3, 2_000, 3_000, 212), new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(List.of("gridstat router", "plain Netty relay", "direct (no hop)"),
                results.stream().map(BenchRun.Result::target).toList());
        for (BenchRun.Result r : results) {
            assertTrue(r.latency().histogram().getTotalCount() > 0, r.target() + " recorded latencies:\n" + out);
        }
        assertTrue(results.get(0).latency().bytesPerEvent() >= 0, "allocation measured on the router's threads");
        assertTrue(out.contains("router / plain relay:"), out);
        assertTrue(out.contains("allocated per event"), out);
    }
}
