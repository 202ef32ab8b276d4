package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.time.SystemClock;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.node.Distribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gridstat router --config FILE} as an operator runs it, stopped by SIGTERM. */
class RouterProcessTest {
    @TempDir
    Path dir;

    @Test
    void runsFromItsConfigFileAndStopsCleanlyOnSigterm() throws Exception {
        int routerPort = LoopbackPorts.free();
        List<Long> got = new CopyOnWriteArrayList<>();
        try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            Path config = Files.writeString(dir.resolve("r1.yaml"), String.join("\n",
                    "node:",
                    "  id: proc-r1",
                    "statusRouter:",
                    "  bind: 127.0.0.1:" + routerPort,
                    "  routes:",
                    "    - variable: 3",
                    "      to: [127.0.0.1:" + subscriber.localAddress().getPort() + "]",
                    ""));
            Path log = dir.resolve("router.log");
            Path home = Distribution.home();
            String java = ProcessHandle.current().info().command().orElse("java");
            Process router = new ProcessBuilder(java, "-Dgridstat.home=" + home,
                    "-cp", home.resolve("lib") + File.separator + "*",
                    "org.gridstat.node.cli.Gridstat", "router", "--config", config.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (!Files.readString(log).contains("running;") && router.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertTrue(router.isAlive(), "router exited early:\n" + Files.readString(log));
                assertTrue(LoopbackPorts.anySocketOn(routerPort), "router bound its port:\n" + Files.readString(log));

                try (Publisher p = Publisher.connect(new InetSocketAddress("127.0.0.1", routerPort))) {
                    Publication pub = p.publication(VariableId.of(3), ServiceClass.LRT, null);
                    for (int i = 0; i < 10; i++) {
                        pub.publish(i, SystemClock.INSTANCE.nanos());
                    }
                }
                deadline = System.nanoTime() + 5_000_000_000L;
                while (got.size() < 10 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), got);

                router.destroy(); // SIGTERM
                assertTrue(router.waitFor(20, TimeUnit.SECONDS), "router stops within 20 s of SIGTERM");
            } finally {
                router.destroyForcibly();
            }
            String output = Files.readString(log);
            assertTrue(output.contains("router proc-r1 stopped"), "data plane closed on SIGTERM:\n" + output);
            assertFalse(LoopbackPorts.anySocketOn(routerPort), "port released");
        }
    }
}
