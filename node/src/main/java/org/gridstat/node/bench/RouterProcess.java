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
 * A status router run as its own process (the {@code gridstat router} command), optionally pinned
 * to chosen CPUs with {@code taskset}, so a benchmark can keep the router off the cores its load
 * generator and sink use, or start each run on a cold JVM. The process never outlives the bench by
 * long: {@code timeout} ends it after a maximum lifetime, and a shutdown hook when the bench's JVM is
 * interrupted.
 */
final class RouterProcess implements AutoCloseable {
    /** With {@code --isolate}: the router's CPU, and the one the generator, sink, relay and capture share. */
    static final String ROUTER_CPUS = "1";
    static final String GENERATOR_CPUS = "0";
    private static final String GC_LOG = "gc.log";

    private final Process process;
    private final Path dir;
    private final Thread shutdownHook;
    private String stoppedLog;

    private RouterProcess(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
        // The JVM's end (Ctrl-C, SIGTERM) runs this instead of close(): SIGTERM first, so the router removes its
        // framework storage, then SIGKILL; the folder goes with the JVM.
        this.shutdownHook = new Thread(() -> {
            process.destroy();
            try {
                if (!process.waitFor(3, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                kill();
            }
        }, "bench-router-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a router with the node file {@code yaml} and returns once it forwards.
     *
     * @param cpus       a {@code taskset} CPU list, or null to run anywhere
     * @param maxSeconds the process's lifetime at most, whatever happens to the bench
     */
    static RouterProcess start(String yaml, String cpus, long maxSeconds) throws IOException, InterruptedException {
        return start(yaml, cpus, maxSeconds, false);
    }

    /** As {@link #start(String, String, long)}; with {@code logGc}, the router's JVM logs its collections (see {@link #gcLog()}). */
    static RouterProcess start(String yaml, String cpus, long maxSeconds, boolean logGc)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("gridstat-bench-router");
        Path config = Files.writeString(dir.resolve("router.yaml"), yaml);
        Path log = dir.resolve("router.log");
        // Removed at the JVM's end if close() never runs; deleteOnExit goes in reverse order, files before the folder.
        for (Path p : List.of(dir, config, log, dir.resolve(GC_LOG))) {
            p.toFile().deleteOnExit();
        }
        Path home = Distribution.home();
        List<String> cmd = new ArrayList<>();
        if (CRelay.onPath("timeout")) {
            // timeout passes our SIGTERM on to the router and waits for it, so stop() still ends it cleanly.
            cmd.addAll(List.of("timeout", "--kill-after=10", Math.max(1, maxSeconds) + "s"));
        }
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        // As the launcher runs a router (bin/gridstat): no sampled leak detection, a recycler batch
        // large enough for a read batch of events.
        cmd.addAll(List.of("-Dio.netty.leakDetection.level=disabled", "-Dio.netty.recycler.chunkSize=4096", "-Dio.netty.recycler.ratio=1"));
        if (logGc) {
            cmd.add("-Xlog:gc:file=" + dir.resolve(GC_LOG));
        }
        String extra = System.getenv("GRIDSTAT_BENCH_ROUTER_OPTS"); // JVM options for the router, to study it
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(List.of(extra.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-Dgridstat.home=" + home, "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-cp", home.resolve("lib") + File.separator + "*", "org.gridstat.node.cli.Gridstat", "router",
                "--config", config.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RouterProcess router = new RouterProcess(p, dir);
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (p.isAlive() && !Files.readString(log).contains("running;") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            if (!p.isAlive() || !Files.readString(log).contains("running;")) {
                throw new IllegalStateException("the router process did not start:\n" + Files.readString(log));
            }
            return router;
        } catch (IOException | InterruptedException | RuntimeException e) {
            router.close();
            throw e;
        }
    }

    /** The router JVM's GC log so far (empty unless started with {@code logGc}). */
    String gcLog() throws IOException {
        Path log = dir.resolve(GC_LOG);
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Stops the router (SIGTERM: it logs its counters as it stops) and returns everything it
     * logged; the folder stays until {@link #close()}.
     */
    String stop() throws IOException, InterruptedException {
        if (stoppedLog == null) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            stoppedLog = Files.readString(dir.resolve("router.log"));
        }
        return stoppedLog;
    }

    /** SIGKILL to the router and to {@code timeout} in front of it, which cannot pass that signal on. */
    private void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
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
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    kill();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
