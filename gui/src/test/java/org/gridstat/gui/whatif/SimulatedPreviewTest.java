package org.gridstat.gui.whatif;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.SubscriptionRequest;
import org.junit.jupiter.api.Test;

/** What the preview does without a broker to ask, and the topology document it reads. */
class SimulatedPreviewTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aBrokerThatCannotBeReachedIsSaidInOneLineNotThrown() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nobody listens there
        }
        SimulatedPreview p = new SimulatedPreview(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:" + port)),
                Duration.ofMillis(500), Duration.ofMillis(500)));
        AdmissionPreview.Result r = p.preview(new SubscriptionRequest("a/b", "r4", "cc", 10, 100, 1, "LRT", ""), null);
        assertEquals(1, r.lines().size(), r.lines().toString());
        assertTrue(r.lines().get(0).startsWith("cannot preview: cannot read /topology from the broker"), r.lines().get(0));
    }

    @Test
    void theManagementApisTopologyReadsAsTheBrokersOwn() throws Exception {
        Topology t = TopologyDocument.parse(JSON.readTree("{\"routers\":[{\"id\":\"r1\",\"capacityEventsPerSecond\":1000,"
                + "\"queueingNanos\":500000,\"cloud\":\"\"},{\"id\":\"r2\",\"capacityEventsPerSecond\":2000,"
                + "\"queueingNanos\":1000000,\"cloud\":\"east\"}],\"links\":[{\"from\":\"r1\",\"to\":\"r2\","
                + "\"bandwidthBytesPerSecond\":125000,\"delayNanos\":1000000,\"sharePercent\":{\"HRT\":50,\"LRT\":30,\"BE\":20}}]}"));
        assertEquals(2, t.routers().size());
        assertEquals(500_000, t.router("r1").queueingBudgetNanos());
        assertEquals("east", t.router("r2").cloud());
        assertEquals(125_000, t.link("r1", "r2").bandwidth());
        assertNull(t.link("r2", "r1"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> TopologyDocument.parse(JSON.readTree("{\"routers\":[],\"links\":[{\"from\":\"r1\",\"to\":\"r2\","
                        + "\"bandwidthBytesPerSecond\":1}]}")));
        assertTrue(bad.getMessage().contains("r1"), bad.getMessage());
    }
}
