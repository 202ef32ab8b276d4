package org.gridstat.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.report.CsvReport;
import org.gridstat.sim.report.MarkdownReport;
import org.gridstat.sim.report.Plots;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every scenario shipped in {@code sim/scenarios/} (each {@code *.yaml} directly in it; what they
 * use, such as topology files, lives in its subfolders) loads, runs for two simulated seconds and
 * gives its outputs.
 */
class ScenarioExamplesTest {
    static final Path SHIPPED = Path.of("scenarios");
    static final long RUN_NANOS = 2_000_000_000L;

    @TempDir
    Path out;

    @TestFactory
    Stream<DynamicTest> everyShippedScenarioRunsBriefly() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SHIPPED)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".yaml") && Files.isRegularFile(p)).sorted().toList();
        }
        assertTrue(files.contains(SHIPPED.resolve("example.yaml")), "found " + files);
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> runBriefly(f)));
    }

    private void runBriefly(Path file) {
        Scenario s = ScenarioFile.load(file, Map.of("duration", RUN_NANOS / 1_000_000 + "ms"));
        assertEquals(RUN_NANOS, s.durationNanos());
        SimulationResult r = Simulation.run(s);
        assertEquals(s.subscriptions().size(), r.admissions().size(), "each subscription has an outcome");
        assertEquals(s.subscriptions().stream().filter(x -> x.atNanos() >= RUN_NANOS).count(),
                r.admissions().values().stream().filter(v -> v.startsWith("not asked")).count(),
                "those due at or after the end are not asked, and say so");
        long admitted = r.admissions().values().stream().filter("admitted"::equals).count();
        long intervals = (RUN_NANOS + s.reportIntervalNanos() - 1) / s.reportIntervalNanos();
        for (Scenario.Subscription sub : s.subscriptions()) {
            long rows = r.rows().stream().filter(row -> row.subscription().equals(sub.label())).count();
            if (sub.atNanos() == 0 && "admitted".equals(r.admissions().get(sub.label()))) {
                assertEquals(intervals, rows, sub.label() + ": a row per report interval");
            } else if (!"admitted".equals(r.admissions().get(sub.label()))) {
                assertEquals(0, rows, sub.label() + " was not admitted: no rows");
            }
        }
        Path dir = out.resolve(s.name());
        CsvReport.write(r, dir);
        List<Path> plots = Plots.write(r, dir);
        MarkdownReport.write(r, dir, plots.stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(admitted > 0 ? 3 : 0, plots.size());
        assertFalse(r.links().isEmpty());
    }
}
