package org.gridstat.gui.feed;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.gridstat.client.events.BrokerEvents;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An event the console cannot read, on a scripted broker's stream (a JDK HTTP server): the
 * resource it carried is marked as not refreshed, and stays marked when other resources' events
 * make the stream live again, until an event of that resource is read.
 */
@Timeout(30)
class EventStreamFeedUnreadableTest {
    private static final String FLOW = "{\"router\":\"r1\",\"flowId\":1,\"version\":1,\"variableId\":7,\"link\":\"r4\","
            + "\"serviceClass\":\"HRT\",\"assuredBytesPerSecond\":100,\"ceilingBytesPerSecond\":200,\"intervalsNanos\":[]}";
    private static final String ALARMS = "{\"decisions\":[],\"noise\":[]}";
    /** What the stream sends next, one SSE event (name and data) each; a null name ends the script. */
    private final BlockingQueue<String[]> script = new LinkedBlockingQueue<>();
    private final List<Resource> received = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private EventStreamFeed feed;

    @AfterEach
    void stop() {
        script.add(new String[] {null, null});
        if (feed != null) {
            feed.close();
        }
        server.stop(0);
    }

    @Test
    void anUnreadableFlowsEventLeavesTheFlowsMarkedUntilFlowsAreReadAgain() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/api/v1/", this::route);
        server.start();
        ConsoleModel model = new ConsoleModel();
        FeedSink sink = new FeedSink() {
            @Override
            public void received(Resource resource, Object value, long receivedAtMillis) {
                model.received(resource, value, receivedAtMillis);
                received.add(resource);
            }

            @Override
            public void connection(ConnectionState state) {
                model.connection(state);
            }

            @Override
            public void unrefreshed(Resource resource, String why) {
                model.unrefreshed(resource, why);
            }
        };
        feed = new EventStreamFeed(List.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort())),
                Duration.ofMinutes(10), Duration.ofSeconds(2), BrokerEvents.Settings.DEFAULT, System::currentTimeMillis);
        script.add(new String[] {"snapshot", "{\"flows\":[" + FLOW + "],\"alarms\":" + ALARMS + "}"});
        feed.start(sink);
        waitFor(() -> received.contains(Resource.FLOWS) && model.snapshot().live(), "the snapshot delivered, live");

        // a flow without its router: the flows event is refused whole; then a good alarms event
        script.add(new String[] {"flows", "[" + FLOW.replace("\"router\":\"r1\",", "") + "]"});
        script.add(new String[] {"alarms", ALARMS});
        waitFor(() -> received.stream().filter(Resource.ALARMS::equals).count() == 2 && model.snapshot().live(),
                "the alarms event delivered, live again");
        ConsoleSnapshot s = model.snapshot();
        assertNotNull(s.staleness(Resource.FLOWS), "the flows shown are those before the unreadable event");
        assertTrue(s.staleness(Resource.FLOWS).contains("field 'router' is missing"), s.staleness(Resource.FLOWS));
        assertNull(s.staleness(Resource.ALARMS));

        script.add(new String[] {"flows", "[" + FLOW + "]"});
        waitFor(() -> received.stream().filter(Resource.FLOWS::equals).count() == 2, "the next flows event delivered");
        assertNull(model.snapshot().staleness(Resource.FLOWS), "read again, the flows are current");
    }

    private void route(HttpExchange x) throws IOException {
        String route = x.getRequestURI().getPath().substring("/api/v1/".length());
        if (!route.equals("events")) {
            String body = switch (route) {
                case "status" -> "{\"replica\":\"b1\",\"leader\":true,\"leaderApi\":\"\",\"lastTakeoverMillis\":1}";
                case "topology" -> "{\"routers\":[],\"links\":[]}";
                default -> "[]";
            };
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
            return;
        }
        x.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
        x.sendResponseHeaders(200, 0);
        OutputStream out = x.getResponseBody();
        int id = 1;
        try {
            while (true) {
                String[] e = script.poll(20, TimeUnit.SECONDS);
                if (e == null || e[0] == null) {
                    break;
                }
                out.write(("event: " + e[0] + "\nid: " + id++ + "\ndata: " + e[1] + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (InterruptedException | IOException e) {
            // the test is over
        } finally {
            x.close();
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
