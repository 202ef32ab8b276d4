package org.gridstat.node;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigTest {
    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve("node.yaml"), yaml);
    }

    @Test
    void theShippedExampleLoadsIntoRouterConfiguration() {
        NodeConfig c = NodeConfig.load(Path.of("../distribution/src/main/dist/conf/router-example.yaml"));
        assertEquals("r1", c.nodeId());
        assertNull(c.storage());
        Map<String, Object> r = c.configurations().get(NodeConfig.STATUS_ROUTER_PID);
        assertEquals("r1", r.get("node.id"));
        assertEquals("127.0.0.1:9470", r.get("data.bind"));
        assertEquals(1, r.get("event.loops"));
        assertEquals(false, r.get("busy.poll"));
        assertEquals(true, r.get("udp.offload"));
        assertEquals("auto", r.get("transport"));
        assertEquals(4194304, r.get("socket.buffer.bytes"));
        assertArrayEquals(new String[] {"6716796193934269558 -> 127.0.0.1:9471, 127.0.0.1:9472"}, (String[]) r.get("routes"));
        assertArrayEquals(new String[] {"name=r2 address=127.0.0.1:9480 capacity=1250000 hrt=50 lrt=30 be=20",
            "name=control-center address=127.0.0.1:9471"}, (String[]) r.get("links"));
        assertArrayEquals(new String[] {
            "id=1 variable=2179084090559380361 link=r2 class=HRT assured=15600 minimum=5200 ceiling=31200 buffer=20 rates=60,20"
                + " publisher=60 budget=10ms minRestDelay=4ms group=utilityA/sub1",
            "id=2 variable=2179084090559380361 link=control-center class=HRT assured=15600 rates=60 publisher=60"}, (String[]) r.get("flows"));
        assertEquals(1000L, r.get("estimator.period.ms"));
        assertTrue(r.get("congestion.control").equals("off") || r.get("congestion.control").equals("false"),
                "YAML's off, as text: " + r.get("congestion.control"));
    }

    @Test
    void defaultsFillWhatTheFileLeavesOut() throws IOException {
        NodeConfig c = NodeConfig.load(write("node:\n  id: edge\n  storage: /tmp/x\nstatusRouter: {}\n"));
        assertEquals(Path.of("/tmp/x"), c.storage());
        Map<String, Object> r = c.configurations().get(NodeConfig.STATUS_ROUTER_PID);
        assertEquals("127.0.0.1:9470", r.get("data.bind"));
        assertEquals(0, ((String[]) r.get("routes")).length);
    }

    @Test
    void aMisspelledKeyIsAnErrorWithItsLine() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  bind: 127.0.0.1:1\n  evnetLoops: 2\n")));
        assertTrue(e.getMessage().contains("line 5"), e.getMessage());
        assertTrue(e.getMessage().contains("evnetLoops"), e.getMessage());
    }

    @Test
    void aFlowValueWithSpacesIsRefused() throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(write(
                "node:\n  id: r1\nstatusRouter:\n  flows:\n    - id: 1\n      group: two words\n")));
        assertTrue(e.getMessage().contains("statusRouter.flows entry 1"), e.getMessage());
    }

    @Test
    void missingPartsAreNamed() throws IOException {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(write("statusRouter: {}\n")))
                .getMessage().contains("node"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(write("node:\n  id: r1\n")))
                .getMessage().contains("add a 'statusRouter' or a 'gateway' section"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  routes:\n    - variable: 1\n")))
                .getMessage().contains("to"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(dir.resolve("absent.yaml")))
                .getMessage().contains("absent.yaml"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  eventLoops: many\n")))
                .getMessage().contains("line 4"));
    }

    @Test
    void theRemovedUpstreamKeyIsRefusedWithWhatToDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(
                write("node:\n  id: r1\nstatusRouter:\n  upstream: [127.0.0.1:9000]\n")));
        assertTrue(e.getMessage().contains("upstream is no longer used") && e.getMessage().contains("line 4"), e.getMessage());
    }

    @Test
    void congestionControlIsOffByDefaultOnWhenAskedAndABadValueIsRefused() throws IOException {
        Map<String, Object> byDefault = NodeConfig.load(write("node:\n  id: r1\nstatusRouter: {}\n"))
                .configurations().get(NodeConfig.STATUS_ROUTER_PID);
        assertEquals("off", byDefault.get("congestion.control"));
        for (String on : new String[] {"on", "true"}) {
            Map<String, Object> r = NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  congestionControl: " + on + "\n"))
                    .configurations().get(NodeConfig.STATUS_ROUTER_PID);
            assertTrue(r.get("congestion.control").equals("on") || r.get("congestion.control").equals("true"),
                    on + " -> " + r.get("congestion.control"));
        }
        Map<String, Object> empty = NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  congestionControl:\n"))
                .configurations().get(NodeConfig.STATUS_ROUTER_PID);
        assertEquals("off", empty.get("congestion.control"), "an empty value is the default");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(
                write("node:\n  id: r1\nstatusRouter:\n  congestionControl: sometimes\n")));
        assertTrue(e.getMessage().contains("congestion.control must be on, local or off, got 'sometimes'"), e.getMessage());
    }

    /** A list key left with no value (its entries commented out) is an empty list, not a crash. */
    @Test
    void aListOfTheRoutersLeftWithoutEntriesIsEmpty() throws IOException {
        for (String key : new String[] {"kernelShaping", "links", "flows"}) {
            Map<String, Object> r = NodeConfig.load(write("node:\n  id: r1\nstatusRouter:\n  " + key
                    + ":\n  #  - {link: cc, device: eth1}\n")).configurations().get(NodeConfig.STATUS_ROUTER_PID);
            assertEquals(0, ((String[]) r.get(key.equals("kernelShaping") ? "kernel.shaping" : key)).length, key);
        }
    }
}
