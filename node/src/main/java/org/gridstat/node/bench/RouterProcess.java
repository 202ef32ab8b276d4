package org.gridstat.node.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.node.Distribution;

/**
 * A status router run as its own process (the {@code gridstat router} command), pinned to chosen
 * CPUs with {@code taskset}, so a benchmark can keep the router off the cores its load generator
 * and sink use.
 */
final class RouterProcess implements AutoCloseable {
    /** With {@code --isolate}: the router's CPU, and the one the generator, sink, relay and capture share. */
    static final String ROUTER_CPUS = "1";
    static final String GENERATOR_CPUS = "0";

    private final Process process;
    private final Path dir;

    private RouterProcess(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    static RouterProcess start(String yaml, String cpus) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("gridstat-bench-router");
        Path config = Files.writeString(dir.resolve("router.yaml"), yaml);
        Path log = dir.resolve("router.log");
        Path home = Distribution.home();
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus,
                ProcessHandle.current().info().command().orElse("java"), "-Dgridstat.home=" + home,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", home.resolve("lib") + File.separator + "*", "org.gridstat.node.cli.Gridstat", "router",
                "--config", config.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (p.isAlive() && !Files.readString(log).contains("running;") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (!p.isAlive() || !Files.readString(log).contains("running;")) {
            p.destroyForcibly();
            throw new IllegalStateException("the router process did not start:\n" + Files.readString(log));
        }
        return new RouterProcess(p, dir);
    }

    /** Pins every thread of this JVM (and the threads it starts later) to {@code cpus}. */
    static void pinThisProcess(String cpus) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("taskset failed: " + new String(p.getInputStream().readAllBytes()));
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
