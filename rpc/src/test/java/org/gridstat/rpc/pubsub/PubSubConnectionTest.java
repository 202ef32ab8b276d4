package org.gridstat.rpc.pubsub;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.junit.jupiter.api.Test;

/** Which publication a send goes out on, and the peer's variables routed to one connection only. */
class PubSubConnectionTest {
    @Test
    void aSendGoesOutOnItsLevelElseTheLargestBelowElseTheSmallestOffered() {
        try (RpcAgent agent = RpcAgent.start("test-agent");
             Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", 9))) {
            Publication k2 = publisher.publication(VariableId.of(2), ServiceClass.HRT, Duration.ofMillis(10));
            Publication k4 = publisher.publication(VariableId.of(4), ServiceClass.HRT, Duration.ofMillis(10));
            VariableDispatch dispatch = new VariableDispatch();
            try (PubSubConnection c = new PubSubConnection(agent, 1, 10_000_000L, Map.of(2, k2, 4, k4),
                    Map.of(2, VariableId.of(12), 4, VariableId.of(14)), dispatch)) {
                assertEquals(2, c.levelFor(1), "no level at or below 1: the smallest offered");
                assertEquals(2, c.levelFor(2));
                assertEquals(2, c.levelFor(3), "the largest level below");
                assertEquals(4, c.levelFor(4));
                assertEquals(4, c.levelFor(8));
                assertTrue(dispatch.routes(VariableId.of(12)) && dispatch.routes(VariableId.of(14)));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PubSubConnection(agent,
                        2, 10_000_000L, Map.of(1, k2), Map.of(1, VariableId.of(30), 2, VariableId.of(14)), dispatch));
                assertTrue(e.getMessage().contains("routed already"), e.getMessage());
                assertFalse(dispatch.routes(VariableId.of(30)), "a connection refused leaves no route behind");
            }
            assertFalse(dispatch.routes(VariableId.of(12)), "closing the connection removes its routes");
        }
    }

    @Test
    void levelsAreOneToEightPaths() {
        assertThrows(IllegalArgumentException.class, () -> TwoWayPlan.caller("svc", Duration.ofMillis(10),
                Duration.ofMillis(1), 0));
        assertThrows(IllegalArgumentException.class, () -> TwoWayPlan.caller("svc", Duration.ofMillis(10),
                Duration.ofMillis(1), 9));
        TwoWayPlan caller = TwoWayPlan.caller("svc", Duration.ofMillis(10), Duration.ofMillis(1), 1, 2);
        assertEquals(TwoWayPlan.server("svc", Duration.ofMillis(10), Duration.ofMillis(1), 1, 2), caller.reversed());
        assertEquals("svc/request/k2", TwoWayPlan.requestVariable("svc", 2));
    }
}
