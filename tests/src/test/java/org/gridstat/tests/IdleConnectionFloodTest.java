package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.gridstat.broker.store.EmbeddedZooKeeper;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker in its own process, and 20,000 idle HTTP connections to its API (twenty times the
 * default cap of 1,000), half from this JVM and half from a second process, since each process
 * here may hold 20,000 descriptors: the broker stays far from its own descriptor limit,
 * {@code /status} answers and a router's control connection works.
 */
class IdleConnectionFloodTest {
    /** Descriptors this JVM keeps for itself (jars, the HTTP client, ZooKeeper). */
    private static final int RESERVE = 400;
    private static final int CONNECTIONS = 20_000;

    @TempDir
    Path dir;

    @Test
    void idleConnectionsByTheThousandLeaveStatusAndTheControlPortAnswering() throws Exception {
        Path topology = Files.writeString(dir.resolve("topology.yaml"), String.join("\n",
                "routers:", "  - {id: i-r1, capacity: 100000}", "  - {id: i-r2, capacity: 100000}",
                "links:", "  - {between: [i-r1, i-r2], bandwidth: 12500000, delay: 1ms}", ""));
        var os = (com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int target = CONNECTIONS / 2;
        long free = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount() - RESERVE;
        assertTrue(free >= target, "this JVM can open only " + free + " connections; raise ulimit -n");
        Process holder = null;
        List<SocketChannel> idle = new ArrayList<>(target);
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0);
             BrokerProcess broker = BrokerProcess.start(dir, "one", zk.connectString(), topology)) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest status = HttpRequest.newBuilder(URI.create(broker.api() + "/api/v1/status"))
                    .timeout(Duration.ofSeconds(10)).build();
            Eventually.await(() -> leads(http, status), "the broker leads:\n" + broker.output(), 30);

            InetSocketAddress api = new InetSocketAddress("127.0.0.1", broker.apiPort);
            long t0 = System.nanoTime();
            int held = 0;
            try {
                holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), IdleConnectionHolder.class.getName(),
                        "127.0.0.1", Integer.toString(broker.apiPort), Integer.toString(CONNECTIONS - target))
                        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
                while (idle.size() < target) {
                    idle.add(SocketChannel.open(api));
                }
                String line = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream())).readLine();
                held = line != null && line.startsWith("held ") ? Integer.parseInt(line.substring(5)) : 0;
            } finally {
                System.out.printf("idle connection flood: %d idle HTTP connections opened in %.1f s (%d by this JVM, %d by"
                                + " a second process); broker holds %d descriptors%n", idle.size() + held,
                        (System.nanoTime() - t0) / 1e9, idle.size(), held, descriptors(broker.pid()));
            }
            assertEquals(CONNECTIONS, idle.size() + held);
            assertTrue(broker.alive(), broker.output());
            long fds = descriptors(broker.pid());
            assertTrue(fds < 3_000, "the broker holds " + fds + " descriptors, its cap keeps it far below its limit");

            long asked = System.nanoTime();
            HttpResponse<String> answer = http.send(status, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            System.out.printf("idle connection flood: /status answered 200 in %.0f ms%n", (System.nanoTime() - asked) / 1e6);

            try (Socket router = new Socket()) {
                router.connect(new InetSocketAddress("127.0.0.1", broker.controlPort), 5_000);
                router.setSoTimeout(10_000);
                router.getOutputStream().write(ControlCodec.encode(1, new ControlMessage.Hello("i-r1")));
                DataInputStream in = new DataInputStream(router.getInputStream());
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
                assertInstanceOf(ControlMessage.SyncEnd.class, f.message(), "the router is resynchronised: " + f);
            }
        } finally {
            if (holder != null) {
                holder.destroyForcibly();
            }
            for (SocketChannel c : idle) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private static boolean leads(HttpClient http, HttpRequest status) {
        try {
            HttpResponse<String> r = http.send(status, HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("\"leader\":true");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static long descriptors(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.count();
        }
    }
}
