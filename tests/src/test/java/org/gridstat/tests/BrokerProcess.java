package org.gridstat.tests;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.BrokerConnection;
import org.gridstat.node.Distribution;

/** A {@code gridstat broker} replica in a process of its own, so that it can be killed outright. */
final class BrokerProcess implements AutoCloseable {
    final String id;
    final int controlPort;
    final int apiPort;
    final Path log;
    private final Process process;

    private BrokerProcess(String id, int controlPort, int apiPort, Path log, Process process) {
        this.id = id;
        this.controlPort = controlPort;
        this.apiPort = apiPort;
        this.log = log;
        this.process = process;
    }

    /** Starts a replica on an ensemble; {@code topology} may be null (the stored one is used). */
    static BrokerProcess start(Path dir, String id, String zookeeper, Path topology, String... more) throws IOException {
        int control = LoopbackPorts.free();
        int api = LoopbackPorts.free();
        Path log = dir.resolve("broker-" + id + ".log");
        Path home = Distribution.home();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Dgridstat.home=" + home, "-cp",
                home.resolve("lib") + File.separator + "*", "org.gridstat.node.cli.Gridstat", "broker", "--id", id,
                "--zookeeper", zookeeper, "--control", "127.0.0.1:" + control, "--api", "127.0.0.1:" + api,
                "--session-timeout", "2s"));
        if (topology != null) {
            cmd.addAll(List.of("--topology", topology.toString()));
        }
        cmd.addAll(List.of(more));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new BrokerProcess(id, control, api, log, p);
    }

    URI api() {
        return URI.create("http://127.0.0.1:" + apiPort);
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGSTOP: the process freezes, its sockets stay open and its kernel still accepts connections. */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze}. */
    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL: no cleanup, its ZooKeeper session simply stops answering. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until this replica says (at {@code /status}) it leads, or that it stands by. */
    void awaitRole(boolean leader, int seconds) throws Exception {
        BrokerConnection direct = BrokerConnection.connect(List.of(api()), Duration.ofSeconds(2), Duration.ZERO);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if (!alive()) {
                throw new AssertionError("broker " + id + " exited:\n" + output());
            }
            try {
                BrokerConnection.Answer a = direct.request("GET", "/status", null);
                if (a.status() == 200 && new ObjectMapper().readTree(a.body()).get("leader").asBoolean() == leader) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw new AssertionError("broker " + id + " is not " + (leader ? "the leader" : "a standby") + " after "
                + seconds + " s:\n" + output());
    }
}
