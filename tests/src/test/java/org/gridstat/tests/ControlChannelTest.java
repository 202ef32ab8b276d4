package org.gridstat.tests;

import static org.junit.jupiter.api.Assertions.*;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.broker.control.ControlChannelServer;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.node.Distribution;
import org.gridstat.node.EquinoxNode;
import org.gridstat.node.NodeConfig;
import org.junit.jupiter.api.Test;

/**
 * A broker installs a flow in a router node (a real Equinox framework) over the control channel;
 * the router, restarted, gets its flows back by resynchronisation; malformed and unknown peers are
 * refused without disturbing it.
 */
class ControlChannelTest {
    private static final String STATUS_ROUTER = "org.gridstat.statusrouter.api.StatusRouter";

    @Test
    void brokerInstallsFlowsAndARestartedRouterIsResynchronised() throws Exception {
        List<Long> got = new CopyOnWriteArrayList<>();
        try (ControlChannelServer broker = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0), Set.of("ctl-r1"));
             Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> got.add(e.sequence()))) {
            brokerAddress = broker.address();
            int routerPort = LoopbackPorts.free();
            NodeConfig.StatusRouterSection router = new NodeConfig.StatusRouterSection();
            router.bind = "127.0.0.1:" + routerPort;
            router.links = List.of(Map.of("name", "cc", "address", "127.0.0.1:" + subscriber.localAddress().getPort()));
            router.broker = "127.0.0.1:" + broker.address().getPort();
            NodeConfig config = NodeConfig.of("ctl-r1", null, router);

            broker.install("ctl-r1", new ControlMessage.InstallFlow(1, 5, "cc",
                    FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, "sub-1"), new long[0], 0, 0));

            EquinoxNode node = EquinoxNode.start(Distribution.bundles(), config);
            try {
                assertNotNull(node.awaitService(STATUS_ROUTER, EquinoxNode.TIMEOUT_MILLIS), node.inactiveBundles().toString());
                Eventually.await(() -> broker.inSync("ctl-r1"),
                        "router connects and acknowledges", 15);
                publish(routerPort, 10);
                Eventually.await(() -> got.size() == 10, "the installed flow forwards", 15);

                // Malformed and unknown peers are refused; the router stays connected.
                assertRefused(new byte[] {0, 0, 0, 3, 9, 9, 9}, "malformed");
                assertRefused(ControlCodec.encode(1, new ControlMessage.Hello("intruder")), "no router 'intruder'");
                assertRefused(ControlCodec.encode(1, new ControlMessage.Ack(1)), "first message must be Hello");
                assertTrue(broker.connected("ctl-r1"));

                // A flow for a link the router does not have is refused with the reason.
                broker.install("ctl-r1", new ControlMessage.InstallFlow(1, 6, "nowhere",
                        FlowSpec.of(78, ServiceClass.BE, 0, 0, 1_000, 20, ""), new long[0], 0, 0));
                Eventually.await(() -> broker.refusals().stream().anyMatch(r -> r.contains("no out-link 'nowhere'")),
                        "refusal reported", 15);
                broker.remove("ctl-r1", 78, 1);
            } finally {
                node.close();
            }
            Eventually.await(() -> !broker.connected("ctl-r1"), "the stopped router disconnects", 15);

            // Restart: the router has no flows of its own; the broker's resync restores flow 77.
            got.clear();
            node = EquinoxNode.start(Distribution.bundles(), config);
            try {
                Eventually.await(() -> broker.inSync("ctl-r1"),
                        "router reconnects and resyncs", 15);
                publish(routerPort, 10);
                Eventually.await(() -> got.size() == 10, "the restored flow forwards", 15);
            } finally {
                node.close();
            }
        }
    }

    private static void publish(int routerPort, int n) throws Exception {
        try (Publisher p = Publisher.connect(new InetSocketAddress("127.0.0.1", routerPort))) {
            Publication pub = p.publication(VariableId.of(5), ServiceClass.HRT, null);
            for (int i = 0; i < n; i++) {
                pub.publish(i, System.currentTimeMillis() * 1_000_000L);
            }
        }
    }

    private void assertRefused(byte[] bytes, String why) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(brokerAddress);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] len = in.readNBytes(4);
            assertEquals(4, len.length, "a refusal comes back before the broker hangs up");
            byte[] body = in.readNBytes(ByteBuffer.wrap(len).getInt());
            ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
            ControlMessage.Nack nack = assertInstanceOf(ControlMessage.Nack.class, f.message());
            assertTrue(nack.reason().contains(why), nack.reason());
            assertEquals(-1, in.read(), "then the connection is closed");
        }
    }

    private InetSocketAddress brokerAddress;
}
