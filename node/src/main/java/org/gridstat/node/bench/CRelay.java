package org.gridstat.node.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's per-datagram ceiling as a bench target: a C program doing nothing but
 * {@code recvmmsg}/{@code sendmmsg} in batches from its UDP port to the sink (crelay.c, next to
 * this class). The bench compiles it with gcc into a temporary folder at run time, so the build
 * needs no C toolchain and a machine without gcc only loses this target.
 *
 * <p>The relay never outlives the bench: {@link #close()} stops it (SIGTERM, then SIGKILL), a
 * shutdown hook does the same when the JVM is interrupted, and the program itself exits when its
 * standard input closes (the JVM is gone, however it ended) and after a maximum lifetime.
 */
final class CRelay implements AutoCloseable {
    /** Datagrams per system call; 64 is where batching stops paying on loopback (TOOLCHAIN.md). */
    static final int BATCH = 64;
    private static final String SOURCE = "crelay.c";
    private static final Pattern READY = Pattern.compile("crelay ready port=(\\d+) dest=(\\d+) batch=(\\d+)");
    private static final Pattern STOPPED = Pattern.compile(
            "crelay stopped received=(\\d+) sent=(\\d+) errors=(\\d+) batches=(\\d+)");

    /** What the relay counted over its life: datagrams received, sent on, refused by the kernel, and recvmmsg calls. */
    record Stats(long received, long sent, long errors, long batches) {
        /** Datagrams per recvmmsg call: how full the batches were. */
        double perBatch() {
            return batches == 0 ? 0 : (double) received / batches;
        }
    }

    /** The compiled program, or why there is none. */
    record Build(Path executable, Path dir, String skipReason) {
        boolean available() {
            return executable != null;
        }
    }

    private final Process process;
    private final Path output;
    private final Thread shutdownHook;

    private CRelay(Process process, Path output) {
        this.process = process;
        this.output = output;
        this.shutdownHook = new Thread(process::destroyForcibly, "crelay-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Compiles crelay.c into a new temporary folder; without gcc, or if it fails, says why instead. */
    static Build compile() throws IOException, InterruptedException {
        if (!onPath("gcc")) {
            return new Build(null, null, "gcc not found (scripts/setup --bench installs it)");
        }
        Path dir = Files.createTempDirectory("gridstat-crelay");
        Path source = dir.resolve(SOURCE);
        Path exe = dir.resolve("crelay");
        // Removed at the JVM's end if delete() never runs; deleteOnExit goes in reverse order, files before the folder.
        for (Path p : List.of(dir, source, exe)) {
            p.toFile().deleteOnExit();
        }
        try (InputStream in = CRelay.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                deleteTree(dir);
                return new Build(null, null, SOURCE + " is missing from the bench's classpath");
            }
            Files.copy(in, source);
        }
        Process gcc = new ProcessBuilder("gcc", "-O2", "-Wall", "-pthread", "-o", exe.toString(), source.toString())
                .redirectErrorStream(true).start();
        gcc.getOutputStream().close();
        boolean ended = gcc.waitFor(60, TimeUnit.SECONDS);
        String said = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!ended || gcc.exitValue() != 0) {
            gcc.destroyForcibly();
            deleteTree(dir);
            return new Build(null, null, "gcc could not build " + SOURCE + (ended ? "" : " within 60 s") + ": " + said);
        }
        return new Build(exe, dir, null);
    }

    /**
     * Starts the relay from {@code port} to {@code destPort} on 127.0.0.1 and returns once it is bound.
     *
     * @param cpus        a {@code taskset} CPU list to pin it to, or null
     * @param maxSeconds  the relay's lifetime at most, whatever happens to the bench
     */
    static CRelay start(Build build, int port, int destPort, String cpus, long maxSeconds)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.addAll(List.of(build.executable().toString(), Integer.toString(port), Integer.toString(destPort),
                Integer.toString(BATCH), Long.toString(Math.max(1, maxSeconds))));
        // stdin stays a pipe from this JVM: its end closing is how the relay learns the bench is gone. Its
        // output goes to a file: a pipe's last line can be lost to the JDK draining it when the process exits.
        Path output = Files.createTempFile(build.dir(), "crelay-" + port + "-", ".log");
        output.toFile().deleteOnExit(); // registered after the folder, so deleted before it
        CRelay relay = new CRelay(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start(),
                output);
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (parseReady(Files.readString(output)) == null && relay.process.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            if (parseReady(Files.readString(output)) == null) {
                throw new IOException("the C relay did not start" + (relay.process.isAlive() ? " within 10 s"
                        : " (exit " + relay.process.exitValue() + ")") + ": " + Files.readString(output).trim());
            }
            return relay;
        } catch (IOException | InterruptedException | RuntimeException e) {
            relay.close();
            throw e;
        }
    }

    /** The relay's closing line, parsed; null if {@code line} (or text) holds none. */
    static Stats parseStopped(String line) {
        Matcher m = STOPPED.matcher(line);
        if (!m.find()) {
            return null;
        }
        return new Stats(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)));
    }

    /** The ports and batch size the relay announced, or null if {@code text} holds no ready line. */
    static int[] parseReady(String line) {
        Matcher m = READY.matcher(line);
        return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))}
                : null;
    }

    /** Stops the relay and returns its counts, or null if it did not say them. */
    Stats stop() throws InterruptedException, IOException {
        if (process.isAlive()) {
            process.destroy(); // SIGTERM: the relay prints its counts and exits
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        }
        return parseStopped(Files.readString(output));
    }

    /** What the relay printed so far. */
    String output() throws IOException {
        return Files.readString(output).trim();
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }

    /** The relay's process, for tests of its lifetime. */
    Process process() {
        return process;
    }

    /** Removes a build's folder. */
    static void delete(Build build) {
        if (build.dir() != null) {
            deleteTree(build.dir());
        }
    }

    private static void deleteTree(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }
}
