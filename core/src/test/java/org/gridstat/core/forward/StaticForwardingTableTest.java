package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.model.Endpoint;
import org.junit.jupiter.api.Test;

class StaticForwardingTableTest {
    @Test
    void parsesRoutesAndSharesOutLinksBetweenVariables() {
        StaticForwardingTable t = StaticForwardingTable.parse(List.of(
                "1 -> 127.0.0.1:9471, 127.0.0.1:9472",
                "0x10 -> 127.0.0.1:9472"));
        assertEquals(List.of(Endpoint.parse("127.0.0.1:9471"), Endpoint.parse("127.0.0.1:9472")), t.outLinks());
        Route r1 = t.route(1);
        assertEquals(2, r1.outLinkCount());
        assertEquals(0, r1.outLink(0));
        assertEquals(1, r1.outLink(1));
        Route r16 = t.route(16);
        assertEquals(1, r16.outLinkCount());
        assertEquals(1, r16.outLink(0));
        assertNull(t.route(2));
    }

    @Test
    void duplicateDestinationsOfOneRouteCollapseToOneCopy() {
        StaticForwardingTable t = StaticForwardingTable.parse(List.of("7 -> 127.0.0.1:1, 127.0.0.1:1"));
        assertEquals(1, t.route(7).outLinkCount());
    }

    @Test
    void findsEveryRouteAmongThousandsIncludingCollidingIds() {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= 5000; i++) {
            lines.add((i * 1024L) + " -> 10.0.0." + (i % 7) + ":" + (1000 + i % 3));
        }
        StaticForwardingTable t = StaticForwardingTable.parse(lines);
        assertEquals(5000, t.size());
        assertEquals(21, t.outLinks().size());
        for (int i = 1; i <= 5000; i++) {
            Route r = t.route(i * 1024L);
            assertNotNull(r, "route " + i);
            assertEquals(i * 1024L, r.variableId());
            assertEquals(Endpoint.parse("10.0.0." + (i % 7) + ":" + (1000 + i % 3)), t.outLinks().get(r.outLink(0)));
        }
        assertNull(t.route(1023));
        assertNull(t.route(-1));
    }

    @Test
    void badLinesNameTheLineAndTheProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StaticForwardingTable.parse(List.of("1 -> a:1", "2 => b:2")));
        assertTrue(e.getMessage().startsWith("route 2 '2 => b:2'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> StaticForwardingTable.parse(List.of("1 -> a:1", "1 -> b:2")));
        assertTrue(e.getMessage().contains("routed twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> StaticForwardingTable.parse(List.of("0 -> a:1")));
        assertTrue(e.getMessage().contains("reserved"), e.getMessage());
    }

    @Test
    void emptyTableRoutesNothing() {
        StaticForwardingTable t = StaticForwardingTable.parse(List.of());
        assertNull(t.route(1));
        assertTrue(t.outLinks().isEmpty());
    }
}
