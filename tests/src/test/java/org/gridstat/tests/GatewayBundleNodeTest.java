package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.mapping.PmuSampleView;
import org.gridstat.gateway.mapping.SampleReject;
import org.gridstat.gateway.pmusim.PmuSimSpec;
import org.gridstat.gateway.pmusim.PmuSimulator;
import org.gridstat.gateway.pmusim.SimulatedPmu;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.gridstat.node.gateway.GatewayFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The phasor gateway deployed as a utility would: its bundles in a plain Equinox framework with the
 * distribution's bundles, configured through Config Admin from a node file's {@code gateway}
 * section. It reads a simulated PMU over TCP and publishes the PMU's samples and description.
 */
class GatewayBundleNodeTest {
    private static final String COMPONENT = "org.gridstat.gateway.component.GatewayComponent";

    @Test
    void aNodeFileWithAGatewaySectionRunsTheGatewayBundleThatPublishesThePmu(@TempDir Path dir) throws Exception {
        PmuSimSpec spec = new PmuSimSpec(9, 2, 30, 3_000_000, List.of(new SimulatedPmu("FEEDER 9", 9,
                DataFormat.of(true, true, true, true), 3, 1, 1, NominalFrequency.HZ_60)), 1);
        long samples = VariableId.ofName(VariableName.of("utilityB/feeder9/FEEDER_9")).value();
        long description = VariableId.ofName(VariableName.of("utilityB/feeder9/FEEDER_9/description")).value();
        Map<Long, AtomicLong> got = new ConcurrentHashMap<>();
        Set<Long> bitExact = ConcurrentHashMap.newKeySet();
        PmuSampleView view = new PmuSampleView();
        byte[] payload = new byte[1424];
        try (PmuSimulator sim = PmuSimulator.start(spec, PmuServer.Settings.tcp(new InetSocketAddress("127.0.0.1", 0)));
             Subscriber router = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> {
                 got.computeIfAbsent(e.variableId(), k -> new AtomicLong()).incrementAndGet();
                 if (e.variableId() == samples) {
                     int n = e.copyPayload(payload, 0);
                     synchronized (view) {
                         if (view.wrap(payload, 0, n) == SampleReject.OK && view.idCode() == 9) {
                             bitExact.add(view.soc());
                         }
                     }
                 }
             })) {
            Path file = dir.resolve("gateway-node.yaml");
            Files.writeString(file, """
                    node:
                      id: gw-it
                    gateway:
                      publish:
                        router: r1
                        address: 127.0.0.1:%d
                      devices:
                        - name: feeder9
                          transport: tcp
                          address: 127.0.0.1:%d
                          idCode: 9
                          prefix: utilityB/feeder9
                          class: HRT
                          latencyBound: 50ms
                    """.formatted(router.localAddress().getPort(), sim.server().tcpAddress().getPort()));
            NodeConfig config = NodeConfig.load(file);
            assertTrue(config.configurations().containsKey(NodeConfig.GATEWAY_PID));
            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), config);
            try {
                assertNotNull(node.awaitService(COMPONENT, EquinoxNode.TIMEOUT_MILLIS),
                        "the gateway component; inactive bundles: " + node.inactiveBundles() + "; "
                                + node.componentFailure(COMPONENT));
                assertTrue(node.inactiveBundles().isEmpty(), node.inactiveBundles().toString());
                long end = System.nanoTime() + 20_000_000_000L;
                while ((got.getOrDefault(samples, new AtomicLong()).get() < 60 || !got.containsKey(description))
                        && System.nanoTime() < end) {
                    Thread.sleep(20);
                }
                assertTrue(got.getOrDefault(samples, new AtomicLong()).get() >= 60, "two seconds of samples: " + got);
                assertTrue(got.containsKey(description), "the PMU's description");
                assertFalse(bitExact.isEmpty(), "the samples are the PMU's, as PMU samples");
            } finally {
                node.close();
            }
        }
    }

    @Test
    void aGatewaySectionWithAMistakeIsRefusedBeforeAnythingStartsAndNamesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                node:
                  id: gw-bad
                gateway:
                  publish:
                    router: r1
                    address: 127.0.0.1:9470
                  devices:
                    - name: feeder9
                      transport: carrier-pigeon
                      address: 127.0.0.1:4712
                      idCode: 9
                      prefix: utilityB/feeder9
                """);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeConfig.load(file));
        assertTrue(e.getMessage().contains("carrier-pigeon") && e.getMessage().contains("tcp, udp, tcp+udp, spontaneous"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GatewayFile.load(file), "not a gateway file either");
    }
}
