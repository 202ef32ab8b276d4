package org.gridstat.node.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.explore.Explorer;
import org.gridstat.sim.report.CsvReport;
import org.gridstat.sim.report.MarkdownReport;
import org.gridstat.sim.report.Plots;
import org.gridstat.sim.scenario.Scenario;
import org.gridstat.sim.scenario.ScenarioFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "sim", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Runs a scenario in the simulator, on simulated time, and writes its figures as CSV, markdown and PNG.",
        description = {"Reads SCENARIO, a YAML scenario file (docs/simulator.md), and runs it in the discrete-event"
                + " simulator: the routers' own data path and the broker's own admission on simulated links. Writes"
                + " flows.csv (each subscription per report interval), links.csv, raw.csv, report.md and the plots"
                + " latency.png, throughput.png and drops.png into the output folder, then prints each subscription's"
                + " figures over the whole run.",
                "The same scenario and seed give the same files. A mistake in the scenario, or in an override, exits 2"
                + " with the file, the line (or the override) and the field."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run finished and its files are written", "1:the run, or writing its files, failed",
                "2:the scenario or the arguments are wrong"})
final class SimCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "The scenario file.")
    Path scenarioFile;

    @Option(names = "--explore", paramLabel = "SEEDS", description = "Instead of a scenario: deterministic simulation"
            + " testing. Runs the random scenario of each seed (N: seeds 1..N; A..B: seeds A to B), checks every run's"
            + " invariants and replays every tenth; prints each seed that breaks one, which replays it.")
    String explore;

    @Option(names = "--seed", paramLabel = "N", description = "The seed every random choice is drawn from, in place of"
            + " the scenario's.")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the files go (default: sim-out/<scenario name>).")
    Path out;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides a value of the scenario before it is"
            + " checked: KEY is a dotted path (duration, links.r1->r2.discipline, subscriptions.0.rate or"
            + " subscriptions.cc.rate), VALUE is YAML. Repeatable; applied in order.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        if (explore != null) {
            return explore(stdout, stderr);
        }
        if (scenarioFile == null) {
            stderr.println("sim: give a SCENARIO file, or --explore SEEDS");
            stderr.flush();
            return 2;
        }
        Scenario scenario;
        try {
            scenario = ScenarioFile.load(scenarioFile, overrides);
        } catch (IllegalArgumentException e) {
            stderr.println(e.getMessage());
            stderr.flush();
            return 2;
        }
        if (seed != null) {
            scenario = scenario.withSeed(seed);
        }
        Path dir = out != null ? out : Path.of("sim-out", scenario.name());
        SimProgress progress = new SimProgress(stderr, System::nanoTime, scenario.durationNanos(), System.console() != null);
        SimulationResult result;
        try {
            result = Simulation.run(scenario, progress);
        } catch (RuntimeException e) {
            progress.finish();
            stderr.println(scenarioFile + ": the run failed: " + e.getMessage());
            stderr.flush();
            return 1;
        }
        progress.finish();
        List<Path> written = new ArrayList<>();
        try {
            written.addAll(CsvReport.write(result, dir));
            List<Path> plots = Plots.write(result, dir);
            written.add(MarkdownReport.write(result, dir, plots.stream().map(p -> p.getFileName().toString()).toList()));
            written.addAll(plots);
        } catch (UncheckedIOException e) {
            stderr.println(e.getMessage());
            stderr.flush();
            return 1;
        }
        stdout.print(String.format(Locale.ROOT, "%s, seed %d: %.3f s simulated%n%n", result.scenario(), result.seed(),
                result.durationNanos() / 1e9));
        result.admissions().forEach((label, outcome) -> {
            if (!outcome.equals("admitted")) {
                stdout.println(label + ": " + outcome);
            }
        });
        stdout.print(MarkdownReport.summaryTable(result));
        stdout.println();
        stdout.println("written to " + dir + ": " + String.join(", ", written.stream().map(p -> p.getFileName().toString())
                .toList()));
        stdout.flush();
        return 0;
    }

    private int explore(PrintWriter stdout, PrintWriter stderr) {
        long from;
        long to;
        try {
            int dots = explore.indexOf("..");
            from = dots < 0 ? 1 : Long.parseLong(explore.substring(0, dots).trim());
            to = Long.parseLong((dots < 0 ? explore : explore.substring(dots + 2)).trim());
        } catch (NumberFormatException e) {
            from = 1;
            to = 0;
        }
        if (from > to || from < 0) {
            stderr.println("--explore: SEEDS must be N (seeds 1..N) or A..B with 0 <= A <= B, got '" + explore + "'");
            stderr.flush();
            return 2;
        }
        long first = from;
        long count = to - from + 1;
        List<Explorer.Failure> failures = Explorer.explore(from, to, 10, seed -> {
            if (System.console() != null && (seed - first) % 50 == 0) {
                stderr.print(String.format(Locale.ROOT, "\rseed %d (%d of %d)", seed, seed - first + 1, count));
                stderr.flush();
            }
        });
        if (System.console() != null) {
            stderr.print("\r");
            stderr.flush();
        }
        failures.forEach(f -> stdout.println(f));
        stdout.println(count + " seeds explored, " + (failures.isEmpty() ? "no invariant broken"
                : failures.size() + " broke an invariant"));
        stdout.flush();
        return failures.isEmpty() ? 0 : 1;
    }
}
