package org.gridstat.broker.topology;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridstat.core.model.ServiceClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyFileTest {
    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve("topology.yaml"), yaml);
    }

    @Test
    void readsRoutersAndLinksInBothDirections() throws IOException {
        Topology t = Topology.load(write(String.join("\n",
                "routers:",
                "  - {id: r1, capacity: 100000, queueing: 2ms, cloud: west}",
                "  - {id: r2, capacity: 50000}",
                "links:",
                "  - {between: [r1, r2], bandwidth: 1250000, delay: 5ms, hrt: 60, lrt: 20, be: 20}",
                "")));
        assertEquals(2, t.routers().size());
        assertEquals(2_000_000L, t.router("r1").queueingBudgetNanos());
        assertEquals("west", t.router("r1").cloud());
        assertEquals(1_000_000L, t.router("r2").queueingBudgetNanos(), "default queueing budget");
        assertEquals(2, t.links().size());
        Link l = t.outgoing(t.router("r2")).get(0);
        assertEquals("r2->r1", l.name());
        assertEquals(5_000_000L, l.delayNanos());
        assertEquals(750_000L, l.classCapacity(ServiceClass.HRT));
    }

    @Test
    void errorsNameTheLine() throws IOException {
        assertError("routers:\n  - {id: r1, capacity: 1}\nlinks:\n  - {from: r1, to: r9, bandwidth: 10}\n",
                "line 4", "no router 'r9'");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r1, capacity: 2}\nlinks: []\n", "line 3", "declared twice");
        assertError("routers:\n  - {id: r1, capacity: 1, colour: red}\nlinks: []\n", "line 2", "unknown key 'colour'");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2]}\n",
                "line 5", "'bandwidth' is missing");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2], bandwidth: 5, delay: 3}\n",
                "line 5", "needs a unit");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2], bandwidth: 5, hrt: 80, lrt: 30}\n",
                "line 5", "add up to 130");
        assertError("links: []\n", "line 1", "'routers' is missing");
    }

    private void assertError(String yaml, String line, String what) throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.load(write(yaml)));
        assertTrue(e.getMessage().contains(line), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
