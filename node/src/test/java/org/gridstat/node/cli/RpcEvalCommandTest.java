package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RpcEvalCommandTest {
    @TempDir
    Path dir;

    @Test
    void theShortEvaluationPrintsOursBesideThePublishedAndWritesItsFiles() throws Exception {
        Path out = dir.resolve("eval");
        CommandRun r = CommandRun.of("rpc-eval", "--calls", "200", "--seed", "3", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Ratatoskr RPC evaluation (short), seed 3: 200 calls per point after 20 of warm-up"),
                r.out());
        assertTrue(r.out().contains("### Temporal redundancy under omission"), r.out());
        assertTrue(r.out().contains("\n| 4 | 8 % | "), "n 4 at 8 %: " + r.out());
        assertTrue(r.out().contains("\n| 2 | 50 s / 1,300 s | 99.923 % | "), "k 2 at outages every 50 s: " + r.out());
        for (String published : List.of("| spatial + temporal (k2, n4) | 1 % omission + a 1 s outage every 1,000 s in the network | 24 ms |",
                "| spatial (k2, n1) | 1 % omission + a 1 s outage every 1,000 s in the network | 91 ms |",
                "| temporal (k1, n4) | 8 % omission + a 1 s outage every 50 s in the network | 977 ms |",
                "| none (k1, n1) | 8 % omission + a 1 s outage every 50 s in the network | 939 ms |")) {
            assertTrue(r.out().contains(published), published + " in " + r.out());
        }
        assertTrue(r.out().contains("| sweep | experiments | events | simulated | wall time | events per second |"), r.out());
        assertFalse(r.out().contains("BROKEN"), "at most once held everywhere: " + r.out());
        assertTrue(r.out().endsWith("written to " + out + ": ratatoskr.csv, ratatoskr.md, ratatoskr-temporal.png,"
                + " ratatoskr-retries.png, ratatoskr-call-time.png, ratatoskr-spatial.png\n"), r.out());
        assertEquals(1 + 4 + 2 + 8, Files.readAllLines(out.resolve("ratatoskr.csv")).size());
        assertEquals("", r.err(), "no progress without a console");
    }

    @Test
    void tooFewCallsIsAUsageError() {
        CommandRun r = CommandRun.of("rpc-eval", "--calls", "5");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--calls must be 10 to 10,000,000, got 5"), r.err());
        CommandRun real = CommandRun.of("rpc-eval", "--calls", "10", "--real", "--real-calls", "5");
        assertEquals(2, real.code());
        assertTrue(real.err().contains("--real-calls must be 10 to 100,000, got 5"), real.err());
    }
}
