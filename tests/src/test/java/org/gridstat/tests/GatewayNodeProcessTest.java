package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.gridstat.node.Distribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gridstat router --config FILE} with a node file that runs only a phasor gateway, as
 * docs/deploy-gateway.md shows: it says the gateway runs, and a gateway that cannot start (its
 * stream's port taken) ends the process with exit 1 and the reason, at once.
 */
class GatewayNodeProcessTest {
    private static Process node(Path dir, Path config, Path log) throws Exception {
        Path home = Distribution.home();
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-Dgridstat.home=" + home, "-cp", home.resolve("lib") + File.separator + "*",
                "org.gridstat.node.cli.Gridstat", "router", "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static String yaml(int streamPort) throws Exception {
        return String.join("\n", "node:", "  id: gw-node", "gateway:", "  gatewayId: gw-node",
                "  listen: 127.0.0.1:" + LoopbackPorts.free(), "  streams:",
                "    - {name: cc, idCode: 7, pmus: [utilityA/sub1/PMU-1], tcp: 127.0.0.1:" + streamPort + "}", "");
    }

    @Test
    void aGatewayOnlyNodeRunsAndOneWhosePortIsTakenExitsOneSayingSo(@TempDir Path dir) throws Exception {
        int free;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            free = probe.getLocalPort();
        }
        Path good = Files.writeString(dir.resolve("good.yaml"), yaml(free));
        Path goodLog = dir.resolve("good.log");
        Process running = node(dir, good, goodLog);
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.readString(goodLog).contains("running (phasor gateway);") && running.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.readString(goodLog).contains("node gw-node running (phasor gateway);"), Files.readString(goodLog));
            running.destroy();
            assertTrue(running.waitFor(20, TimeUnit.SECONDS), "stops on SIGTERM");
        } finally {
            running.destroyForcibly();
        }

        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Path bad = Files.writeString(dir.resolve("bad.yaml"), yaml(taken.getLocalPort()));
            Path badLog = dir.resolve("bad.log");
            Process failing = node(dir, bad, badLog);
            try {
                assertTrue(failing.waitFor(60, TimeUnit.SECONDS), "exits, rather than waiting for a router it has not");
                assertEquals(1, failing.exitValue(), Files.readString(badLog));
                String out = Files.readString(badLog);
                assertTrue(out.contains("phasor gateway of node gw-node did not start"), out);
                assertTrue(out.contains(String.valueOf(taken.getLocalPort())), "names the port: " + out);
            } finally {
                failing.destroyForcibly();
            }
        }
    }
}
