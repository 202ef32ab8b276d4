package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A new event stream's snapshot, a view of every resource (a thousand flows' worth on a large
 * broker), is taken off the API's event loops, whose other connections it would hold up; scripted
 * routes note the thread each resource is asked on.
 */
@Timeout(30)
class EventSnapshotThreadTest {
    @Test
    void aStreamsSnapshotIsTakenOffTheEventLoops() throws Exception {
        List<String> askedOn = new CopyOnWriteArrayList<>();
        ManagementApi.Routes routes = (method, path, body) -> {
            if (path.endsWith("/events")) {
                return CompletableFuture.completedFuture(EventStreams.ACCEPTED);
            }
            askedOn.add(Thread.currentThread().getName());
            return CompletableFuture.completedFuture(ApiResponse.ok(path.endsWith("/alarms") ? Map.of() : List.of()));
        };
        ManagementApi api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), routes,
                new ApiLimits(1000, 10_000_000_000L, EventStreamTest.FAST));
        try (SseTestClient c = new SseTestClient(api.address())) {
            assertEquals(200, c.status);
            SseTestClient.Record snapshot = c.next();
            assertEquals("snapshot", snapshot.name());
            assertEquals("{\"flows\":[],\"subscriptions\":[],\"alarms\":{},\"devices\":[],\"routers\":[]}", snapshot.data());
            assertFalse(askedOn.isEmpty());
            assertTrue(askedOn.stream().allMatch(EventStreams.THREAD::equals), "asked on: " + askedOn);
        } finally {
            api.close();
        }
    }
}
