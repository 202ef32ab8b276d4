package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What the event stream counts as changed, with scripted routes: a resource whose JSON is the same
 * at the next pulse is handed on as the same arrays; {@code devices} whose gateways' report ages
 * alone moved counts as unchanged, and changes when a report comes or a gateway turns stale.
 */
class LiveViewsTest {
    private final AtomicLong ageMs = new AtomicLong();
    private volatile String receivedAt = "2026-09-21T14:13:20Z";
    private volatile boolean stale;

    private final ManagementApi.Routes routes = (method, path, body) -> {
        Object answer = switch (path.substring(ResourceTable.PREFIX.length())) {
            case "/devices" -> {
                Map<String, Object> g = new LinkedHashMap<>();
                g.put("gateway", "substation-a");
                g.put("receivedAt", receivedAt);
                g.put("reportAgeMs", ageMs.getAndAdd(250)); // a pulse later, a quarter second older
                g.put("periodMs", 2000);
                g.put("stale", stale);
                g.put("devices", List.of(Map.of("name", "pmu-1", "state", "STREAMING", "health", "good")));
                yield List.of(g);
            }
            case "/alarms" -> Map.of("decisions", List.of(), "noise", List.of());
            default -> List.of();
        };
        return CompletableFuture.completedFuture(ApiResponse.ok(answer));
    };

    private static final int DEVICES = LiveViews.RESOURCES.indexOf("devices");

    @Test
    void devicesWhoseReportAgesAloneMovedAreUnchangedAndTheEventCarriesTheAgeAsSent() {
        LiveViews views = new LiveViews(routes);
        LiveViews.Snapshot first = views.next();
        LiveViews.Snapshot second = views.next();
        for (int i = 0; i < LiveViews.RESOURCES.size(); i++) {
            assertSame(first.identity()[i], second.identity()[i], LiveViews.RESOURCES.get(i) + " unchanged");
            assertSame(first.json()[i], second.json()[i], LiveViews.RESOURCES.get(i) + ": the JSON last sent");
        }
        assertTrue(new String(second.json()[DEVICES], StandardCharsets.UTF_8).contains("\"reportAgeMs\":0"),
                "the age at sending: " + new String(second.json()[DEVICES], StandardCharsets.UTF_8));
        assertFalse(new String(first.identity()[DEVICES], StandardCharsets.UTF_8).contains("reportAgeMs"));

        receivedAt = "2026-09-21T14:13:22Z"; // the gateway's next report
        LiveViews.Snapshot report = views.next();
        assertNotSame(second.identity()[DEVICES], report.identity()[DEVICES], "a new report is a change");
        assertTrue(new String(report.json()[DEVICES], StandardCharsets.UTF_8).contains("14:13:22Z"));
        assertSame(report.identity()[DEVICES], views.next().identity()[DEVICES]);

        stale = true; // silent for three periods
        assertNotSame(report.identity()[DEVICES], views.next().identity()[DEVICES], "turning stale is a change");
    }

    @Test
    void aNewStreamsSnapshotMatchesThePulsesIdentityOfUnchangedDevices() {
        LiveViews views = new LiveViews(routes);
        LiveViews.Snapshot pulse = views.next();
        LiveViews.Snapshot snapshot = views.take(); // a new stream's, a moment later: another age
        assertFalse(java.util.Arrays.equals(pulse.json()[DEVICES], snapshot.json()[DEVICES]));
        assertArrayEquals(pulse.identity()[DEVICES], snapshot.identity()[DEVICES],
                "so the stream's first pulse does not send them again");
    }
}
