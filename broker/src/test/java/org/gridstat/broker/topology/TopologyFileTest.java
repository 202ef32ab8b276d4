package org.gridstat.broker.topology;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gridstat.core.control.ControlMessage.Emulation;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.model.Endpoint;
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
        assertError("routers:\n  - {id: r1, capacity: 100000, capacity: 5}\nlinks: []\n", "line 2", "'capacity' is given twice");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2]}\n",
                "line 5", "'bandwidth' is missing");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2], bandwidth: 5, delay: 3}\n",
                "line 5", "needs a unit");
        assertError("routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2], bandwidth: 5, hrt: 80, lrt: 30}\n",
                "line 5", "add up to 130");
        assertError("links: []\n", "line 1", "'routers' is missing");
    }

    private static final String ADDRESSED = String.join("\n",
            "routers:",
            "  - {id: r1, capacity: 100000, address: 127.0.0.1:9470, priority: 127.0.0.1:9469}",
            "  - id: r2",
            "    capacity: 100000",
            "    address: 127.0.0.1:9480",
            "    delivery:",
            "      - {name: cc, address: 127.0.0.1:9471, capacity: 1250000, hrt: 60, lrt: 30, be: 10, mtu: 65507}",
            "      - {name: lab, address: '[::1]:9472', priority: 127.0.0.1:9473, delay: 5ms, loss: 0.01, queue: 262144}",
            "  - {id: r3, capacity: 100000}",
            "links:",
            "  - {between: [r1, r2], bandwidth: 1250000, delay: 5ms, hrt: 60, lrt: 20, be: 20}",
            "  - {between: [r2, r3], bandwidth: 1250000}",
            "");

    @Test
    void routersCarryTheirAddressesAndDeliveryLinksAndGetTheirOutLinksFromThem() throws IOException {
        Topology t = Topology.load(write(ADDRESSED));
        assertEquals("127.0.0.1:9469", t.router("r1").priority().toString());
        assertNull(t.router("r3").address());

        // r1's link to r2 takes r2's address; r2's link to r1 r1's address and priority port; r3 has no address, so
        // r2's file must name that link itself. Delivery links follow the neighbours.
        assertEquals(List.of(new OutLink("r2", Endpoint.parse("127.0.0.1:9480"), null, 1_250_000, 60, 20, 20, 0, 1472,
                Emulation.NONE)), t.outLinks(t.router("r1")));
        List<OutLink> r2 = t.outLinks(t.router("r2"));
        assertEquals(List.of("r1", "cc", "lab"), r2.stream().map(OutLink::name).toList());
        assertEquals(Endpoint.parse("127.0.0.1:9469"), r2.get(0).priority());
        assertEquals(new OutLink("cc", Endpoint.parse("127.0.0.1:9471"), null, 1_250_000, 60, 30, 10, 0, 65_507,
                Emulation.NONE), r2.get(1));
        assertEquals(new Emulation(5_000_000, 0.01, 0, 0, 1, 262_144), r2.get(2).emulation());
        assertEquals(125_000_000L, r2.get(2).capacity(), "a router link's default capacity");
        assertEquals(List.of(), t.outLinks(t.router("r3")).stream().filter(l -> !l.name().equals("r2")).toList());
        assertEquals(List.of("r2"), t.outLinks(t.router("r3")).stream().map(OutLink::name).toList());

        // The text form keeps all of it, so replicas compare topologies by text.
        assertEquals(t.toText(), Topology.parse(t.toText(), "again").toText());
        assertEquals(r2, Topology.parse(t.toText(), "again").outLinks(Topology.parse(t.toText(), "again").router("r2")));
    }

    @Test
    void deliveryIsCheckedWhereTheTopologyDeclaresIt() throws IOException {
        Topology t = Topology.load(write(ADDRESSED));
        assertNull(t.deliveryRefusal("r2", "cc"));
        assertEquals("router r2 has no delivery link 'ccx' (its delivery links: cc, lab)", t.deliveryRefusal("r2", "ccx"));
        assertNotNull(t.deliveryRefusal("r2", "r1"), "a link to a router is no delivery link");
        assertEquals("router r1 has no delivery links in the topology, so none 'cc'", t.deliveryRefusal("r1", "cc"),
                "where the topology declares delivery links, a router without them delivers nowhere");
        Topology none = Topology.parse("routers:\n  - {id: r1, capacity: 1}\nlinks: []\n", "none");
        assertNull(none.deliveryRefusal("r1", "anything"), "a topology without delivery links takes any name");
        assertNull(t.deliveryRefusal("r9", "cc"), "an unknown router is left to admission");
    }

    @Test
    void addressAndDeliveryMistakesNameTheLine() throws IOException {
        String two = "routers:\n  - {id: r1, capacity: 1}\n  - id: r2\n    capacity: 1\n    delivery:\n";
        assertError(two + "      - {name: r1, address: 'a:1'}\nlinks:\n  - {between: [r1, r2], bandwidth: 5}\n",
                "topology.yaml", "delivery link 'r1' has the name of its link to router r1");
        assertError(two + "      - {name: cc}\nlinks: []\n", "line 6", "'address' is missing");
        assertError(two + "      - {name: cc, address: 'a:1', colour: red}\nlinks: []\n", "line 6", "unknown key 'colour'");
        assertError(two + "      - {name: cc, address: 'a:1', mtu: 100}\nlinks: []\n", "line 6", "mtu must be 1472..65507");
        assertError(two + "      - {name: cc, address: 'a:1'}\n      - {name: cc, address: 'b:1'}\nlinks: []\n", "line 3",
                "delivery link 'cc' is declared twice");
        assertError("routers:\n  - {id: r1, capacity: 1, address: nowhere}\nlinks: []\n", "line 2", "not host:port");
        assertError("routers:\n  - {id: r1, capacity: 1, priority: 'a:1'}\nlinks: []\n", "line 2", "needs the data address");
    }

    @Test
    void anEmptyFileIsAnErrorNamingIt() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.load(write("")));
        assertEquals(dir.resolve("topology.yaml") + ": empty; expected a mapping with 'routers' and 'links'", e.getMessage());
    }

    @Test
    void aTopologyInsideAnotherDocumentNamesItsLinesThere() {
        org.yaml.snakeyaml.nodes.MappingNode doc = (org.yaml.snakeyaml.nodes.MappingNode) new org.yaml.snakeyaml.Yaml()
                .compose(new java.io.StringReader("name: x\ntopology:\n  routers:\n    - {id: r1, capacity: 1}\n"
                        + "    - {id: r2, capacity: 1}\n  links:\n    - {between: [r1, r2], bandwith: 5}\n"));
        org.yaml.snakeyaml.nodes.Node topology = doc.getValue().get(1).getValueNode();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.parse(topology,
                "s.yaml", n -> "s.yaml line " + (n.getStartMark().getLine() + 1)));
        assertEquals("s.yaml line 7: unknown key 'bandwith' (known: ", e.getMessage().substring(0, 46));
        String good = "routers:\n  - {id: r1, capacity: 1}\n  - {id: r2, capacity: 1}\nlinks:\n  - {between: [r1, r2], bandwidth: 5}\n";
        Topology t = Topology.parse(new org.yaml.snakeyaml.Yaml().compose(new java.io.StringReader(good)), "g", n -> "g");
        assertEquals(Topology.parse(good, "g").toText(), t.toText());
    }

    private void assertError(String yaml, String line, String what) throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.load(write(yaml)));
        assertTrue(e.getMessage().contains(line), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
