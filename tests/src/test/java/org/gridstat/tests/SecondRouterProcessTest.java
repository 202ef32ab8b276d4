package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.gridstat.node.Distribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gridstat router} started twice with one configuration: the second exits 1 and names the first. */
class SecondRouterProcessTest {
    @TempDir
    Path dir;

    @Test
    void aSecondRouterOnTheSamePortExits1NamingTheProcessThatHoldsIt() throws Exception {
        int port = LoopbackPorts.free();
        Path config = Files.writeString(dir.resolve("r1.yaml"), String.join("\n",
                "node:", "  id: twin-r1", "statusRouter:", "  bind: 127.0.0.1:" + port, "  eventLoops: 2", ""));
        Process first = start(config, dir.resolve("first.log"));
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.readString(dir.resolve("first.log")).contains("running;") && first.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(first.isAlive(), Files.readString(dir.resolve("first.log")));
            Process second = start(config, dir.resolve("second.log"));
            try {
                assertTrue(second.waitFor(60, TimeUnit.SECONDS), "the second router gives up");
                String out = Files.readString(dir.resolve("second.log"));
                assertEquals(1, second.exitValue(), out);
                assertTrue(out.contains("data port 127.0.0.1:" + port + " is already bound by process " + first.pid()),
                        out);
                assertTrue(first.isAlive(), "the first router runs on");
            } finally {
                second.destroyForcibly();
            }
        } finally {
            first.destroy();
            first.waitFor(20, TimeUnit.SECONDS);
            first.destroyForcibly();
        }
    }

    private static Process start(Path config, Path log) throws Exception {
        Path home = Distribution.home();
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-Dgridstat.home=" + home, "-cp", home.resolve("lib") + File.separator + "*",
                "org.gridstat.node.cli.Gridstat", "router", "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
