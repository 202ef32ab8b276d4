package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.events.BrokerEvents;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the event stream weighs at a thousand flows: 334 subscriptions over a-b-c (three flows
 * each), installed by routers that acknowledge and report statistics for every flow. Prints the
 * sizes (docs/management-api.md quotes them) and checks that the snapshot fits the client's
 * default event bound many times over.
 */
@Timeout(300)
class EventSizesTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SUBSCRIPTIONS = 334;

    @TempDir
    Path dir;
    private ZooKeeperFixture zk;
    private BrokerReplica leader;
    private ManagementApi api;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Router> routers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        zk = new ZooKeeperFixture(dir);
        Topology t = Topology.builder().router("a", 1_000_000).router("b", 1_000_000).router("c", 1_000_000)
                .between("a", "b", 125_000_000, MS, Topology.Builder.defaultShares())
                .between("b", "c", 125_000_000, MS, Topology.Builder.defaultShares()).build();
        leader = new BrokerReplica(zk.client(), "/gridstat", new BrokerReplica.Settings("one",
                new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:1/one"), t);
        leader.start();
        long end = System.nanoTime() + 20_000 * MS;
        while (!leader.isLeader()) {
            assertTrue(System.nanoTime() < end, "never led");
            Thread.sleep(10);
        }
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader, new ApiLimits(1000, 10_000 * MS,
                EventStreamTest.FAST));
    }

    @AfterEach
    void stop() {
        routers.forEach(Router::close);
        api.close();
        leader.close();
        zk.close();
    }

    private String call(String method, String path, String body, int expected) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort()
                        + "/api/v1" + path)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, r.statusCode(), r.body());
        return r.body();
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void aThousandFlowsWithTheirStatistics() throws Exception {
        for (String id : List.of("a", "b", "c")) {
            routers.add(new Router(leader.leading().controlAddress(), id));
        }
        for (int i = 0; i < SUBSCRIPTIONS; i++) {
            call("POST", "/variables", "{\"name\":\"utilityA/sub" + i + "/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,"
                    + "\"rateHz\":30,\"serviceClass\":\"HRT\"}", 201);
            call("POST", "/subscriptions", "{\"variable\":\"utilityA/sub" + i + "/pmu1/freq\",\"subscriberRouter\":\"c\","
                    + "\"subscriberLink\":\"control-center\",\"qos\":{\"rateHz\":30,\"latencyBoundMs\":50,"
                    + "\"serviceClass\":\"HRT\"}}", 201);
        }
        JsonNode flows = JSON.readTree(call("GET", "/flows", null, 200));
        assertEquals(3 * SUBSCRIPTIONS, flows.size());
        for (Router r : routers) {
            List<ControlMessage.FlowSample> samples = new ArrayList<>();
            for (JsonNode f : flows) {
                if (f.get("router").asText().equals(r.id)) {
                    // figures of a flow running an hour at 30 Hz, with a few drops and misses: wide numbers
                    samples.add(new ControlMessage.FlowSample(f.get("flowId").asLong(), 108_000, 28_080_000, 12, 3, 1,
                            7_812.4, 7_800.9, 9_214.7, 7_800, 0, 0, 1_834, 12));
                }
            }
            for (int from = 0; from < samples.size(); from += ControlMessage.FlowReport.MAX_SAMPLES) {
                r.send(new ControlMessage.FlowReport(1_790_000_000_000L, samples.subList(from,
                        Math.min(samples.size(), from + ControlMessage.FlowReport.MAX_SAMPLES))));
            }
        }
        long end = System.nanoTime() + 60_000 * MS;
        do {
            assertTrue(System.nanoTime() < end, "the statistics never all showed");
            Thread.sleep(20);
            flows = JSON.readTree(call("GET", "/flows", null, 200));
        } while (!allHave(flows, "statistics") || !allInstalled(JSON.readTree(call("GET", "/subscriptions", null, 200))));

        int flowsBytes = bytes(call("GET", "/flows", null, 200));
        int subscriptionsBytes = bytes(call("GET", "/subscriptions", null, 200));
        int snapshotBytes;
        try (SseTestClient c = new SseTestClient(api.address())) {
            SseTestClient.Record s = c.next();
            assertEquals("snapshot", s.name());
            snapshotBytes = bytes(s.data());
        }
        // what a pulse costs the broker: the five views built and encoded once, whatever the streams (printed, not asserted)
        LiveViews views = new LiveViews(new ManagementRoutes(leader));
        for (int i = 0; i < 20; i++) {
            views.take();
        }
        long started = System.nanoTime();
        for (int i = 0; i < 50; i++) {
            assertNull(views.take().refusal());
        }
        double pulseMs = (System.nanoTime() - started) / 50 / 1e6;
        ManagementRoutes routes = new ManagementRoutes(leader);
        for (String resource : LiveViews.RESOURCES) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                routes.handle("GET", "/api/v1/" + resource, null).join();
            }
            System.out.printf("GET /%s: %.1f ms%n", resource, (System.nanoTime() - t0) / 20 / 1e6);
        }
        System.out.printf("event stream at %d flows, %d subscriptions: flows %d bytes (%d a flow), subscriptions %d bytes,"
                        + " snapshot %d bytes; at 4 pulses a second the flows alone are %.1f MB/s; a pulse's views take"
                        + " %.1f ms%n", flows.size(), SUBSCRIPTIONS, flowsBytes, flowsBytes / flows.size(), subscriptionsBytes,
                snapshotBytes, flowsBytes * 4 / 1e6, pulseMs);
        assertTrue(snapshotBytes * 8L < BrokerEvents.Settings.DEFAULT.maxEventBytes(),
                "a snapshot at a thousand flows is far within the client's bound: " + snapshotBytes);
    }

    private static boolean allHave(JsonNode list, String field) {
        for (JsonNode n : list) {
            if (!n.has(field)) {
                return false;
            }
        }
        return true;
    }

    private static boolean allInstalled(JsonNode subscriptions) {
        for (JsonNode s : subscriptions) {
            if (!s.get("state").asText().equals("installed")) {
                return false;
            }
        }
        return true;
    }

    /** A router on the control channel that acknowledges every install and sends what it is told to. */
    private static final class Router implements AutoCloseable {
        final String id;
        private final Socket socket;
        private final AtomicLong sequence = new AtomicLong();

        Router(InetSocketAddress broker, String id) throws IOException {
            this.id = id;
            socket = new Socket(broker.getAddress(), broker.getPort());
            send(new ControlMessage.Hello(id));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            Thread reader = new Thread(() -> {
                try {
                    while (true) {
                        byte[] body = new byte[in.readInt()];
                        in.readFully(body);
                        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
                        if (f.valid()) {
                            send(new ControlMessage.Ack(f.sequence()));
                        }
                    }
                } catch (IOException closed) {
                    // the test is over with this router
                }
            }, "sized-router-" + id);
            reader.setDaemon(true);
            reader.start();
        }

        synchronized void send(ControlMessage m) throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(ControlCodec.encode(sequence.incrementAndGet(), m));
            out.flush();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
