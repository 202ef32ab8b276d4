package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimCommandTest {
    static final String SCENARIO = """
            name: line
            duration: 3s
            topology:
              routers:
                - {id: r1, capacity: 100000}
                - {id: r2, capacity: 100000}
              links:
                - {between: [r1, r2], bandwidth: 125000, delay: 5ms}
            variables:
              - {name: pmu, router: r1, bytes: 260, rate: 60, class: HRT, jitter: 2ms, deadline: 50ms, start: 1ms}
            subscriptions:
              - {label: cc, variable: pmu, router: r2, link: cc, latency: 50ms}
              - {label: greedy, variable: pmu, router: r2, link: cc, rate: 120, latency: 50ms}
            """;

    @TempDir
    Path dir;

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void writesTheFilesAndPrintsTheSummary() throws IOException {
        Path file = Files.writeString(dir.resolve("line.yaml"), SCENARIO);
        Path out = dir.resolve("out");
        CommandRun r = run("sim", file.toString(), "--out", out.toString(), "--seed", "5", "--set", "duration=2s");
        assertEquals(0, r.code(), r.err());
        for (String name : List.of("flows.csv", "links.csv", "raw.csv", "report.md", "latency.png", "throughput.png",
                "drops.png")) {
            assertTrue(Files.size(out.resolve(name)) > 0, name);
        }
        List<String> flows = Files.readAllLines(out.resolve("flows.csv"));
        assertEquals(3, flows.size(), "a header and two intervals of the one admitted subscription");
        assertTrue(flows.get(1).startsWith("line,5,cc,0.000000,1.000000,60,60,0,0,0,"), flows.get(1));
        assertTrue(r.out().startsWith("line, seed 5: 2.000 s simulated\n\ngreedy: refused: "), r.out());
        assertTrue(r.out().contains("\n| cc | 120 | 120 | 100.00 | 0 | 0 | 0 | "), r.out());
        assertTrue(r.out().endsWith("written to " + out + ": flows.csv, links.csv, raw.csv, report.md, latency.png,"
                + " throughput.png, drops.png\n"), r.out());
        assertEquals("", r.err(), "a run this short prints no progress");

        byte[] first = Files.readAllBytes(out.resolve("flows.csv"));
        assertEquals(0, run("sim", file.toString(), "--out", out.toString(), "--seed", "5", "--set", "duration=2s").code());
        assertArrayEquals(first, Files.readAllBytes(out.resolve("flows.csv")), "the same run, the same bytes");
    }

    @Test
    void theOutputFolderIsNamedForTheScenarioUnlessGiven() throws IOException {
        Path file = Files.writeString(dir.resolve("line.yaml"), SCENARIO);
        String cwd = System.getProperty("user.dir");
        try {
            CommandRun r = run("sim", file.toString(), "--set", "duration=1s", "--set", "name=cli-test-default-out");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("written to " + Path.of("sim-out", "cli-test-default-out") + ": "), r.out());
            assertTrue(Files.exists(Path.of(cwd, "sim-out", "cli-test-default-out", "flows.csv")));
        } finally {
            try (var files = Files.walk(Path.of(cwd, "sim-out", "cli-test-default-out"))) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            Path.of(cwd, "sim-out").toFile().delete(); // only if empty
        }
    }

    @Test
    void aBadScenarioExitsTwoNamingFieldAndLine() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), SCENARIO.replace("variable: pmu, router: r2, link: cc, latency",
                "variable: pmx, router: r2, link: cc, latency"));
        CommandRun r = run("sim", file.toString(), "--out", dir.resolve("out").toString());
        assertEquals(2, r.code());
        assertEquals(file + " line 12: subscriptions[0].variable: no variable 'pmx' (declared: pmu)\n", r.err());
        assertFalse(Files.exists(dir.resolve("out")), "nothing is written");

        Path good = Files.writeString(dir.resolve("good.yaml"), SCENARIO);
        CommandRun missing = run("sim", good.toString(), "--set", "links.r1->r2.mtu=600");
        assertEquals(2, missing.code());
        assertEquals(good + ": --set links.r1->r2.mtu=600: the scenario has no 'links' (it has: name, duration, topology,"
                + " variables, subscriptions)\n", missing.err());
        CommandRun value = run("sim", good.toString(), "--set", "duration=-1s");
        assertEquals(2, value.code());
        assertEquals(good + ": --set duration=-1s: duration: duration '-1s' must be a non-negative number\n", value.err());
        CommandRun none = run("sim", dir.resolve("absent.yaml").toString());
        assertEquals(2, none.code());
        assertTrue(none.err().startsWith(dir.resolve("absent.yaml") + ": cannot read the scenario: "), none.err());
    }

    @Test
    void exploreRunsTheSeedsItIsGivenAndSaysWhetherAnInvariantBroke() {
        CommandRun ok = run("sim", "--explore", "3..5");
        assertEquals(0, ok.code(), ok.err());
        assertEquals("3 seeds explored, no invariant broken\n", ok.out());
        CommandRun bad = run("sim", "--explore", "5..3");
        assertEquals(2, bad.code());
        assertEquals("--explore: SEEDS must be N (seeds 1..N) or A..B with 0 <= A <= B, got '5..3'\n", bad.err());
        CommandRun none = run("sim");
        assertEquals(2, none.code());
        assertEquals("sim: give a SCENARIO file, or --explore SEEDS\n", none.err());
    }

    @Test
    void progressIsPrintedAfterTheFirstSecondAndAtMostFourTimesASecond() {
        StringWriter err = new StringWriter();
        long[] wall = {0};
        SimProgress p = new SimProgress(new PrintWriter(err), () -> wall[0], 100_000_000_000L, false);
        p.accept(1_000_000_000L); // at 0 s of wall time: quiet
        wall[0] = 1_000_000_000L;
        p.accept(2_000_000_000L);
        wall[0] = 1_100_000_000L;
        p.accept(3_000_000_000L); // 100 ms later: not yet
        wall[0] = 1_250_000_000L;
        p.accept(4_000_000_000L);
        wall[0] = 1_400_000_000L;
        p.accept(5_000_000_000L);
        wall[0] = 1_600_000_000L;
        p.accept(50_000_000_000L);
        p.finish();
        assertEquals("simulated 2.0 s of 100.0 s (2 %)\nsimulated 4.0 s of 100.0 s (4 %)\n"
                + "simulated 50.0 s of 100.0 s (50 %)\n", err.toString());

        StringWriter terminal = new StringWriter();
        wall[0] = 0;
        SimProgress t = new SimProgress(new PrintWriter(terminal), () -> wall[0], 10_000_000_000L, true);
        wall[0] = 2_000_000_000L;
        t.accept(5_000_000_000L);
        wall[0] = 3_000_000_000L;
        t.accept(10_000_000_000L);
        t.finish();
        assertEquals("\rsimulated 5.0 s of 10.0 s (50 %)\rsimulated 10.0 s of 10.0 s (100 %)\n", terminal.toString());
    }
}
