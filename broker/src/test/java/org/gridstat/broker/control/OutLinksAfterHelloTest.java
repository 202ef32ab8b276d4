package org.gridstat.broker.control;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;
import org.junit.jupiter.api.Test;

/** A router is given its out-links right after its Hello, before its flows, at every resynchronisation. */
class OutLinksAfterHelloTest {
    private static final List<OutLink> R1 = List.of(OutLink.of("r2", Endpoint.parse("127.0.0.1:9480"), 12_500_000),
            OutLink.of("cc", Endpoint.parse("127.0.0.1:9471"), 1_250_000));
    private static final ControlMessage.InstallFlow FLOW = new ControlMessage.InstallFlow(1, 5, "cc",
            FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0);

    @Test
    void outLinksComeFirstAndARouterConnectedBeforeThePlanIsSentBackForIt() throws Exception {
        try (ControlChannelServer server = new ControlChannelServer(new InetSocketAddress("127.0.0.1", 0),
                Set.of("r1", "r2"))) {
            server.install("r1", FLOW);
            try (Socket early = RawRouter.hello(server, "r1")) {
                assertInstanceOf(ControlMessage.InstallFlow.class, read(early), "no plan yet: flows only");
                assertInstanceOf(ControlMessage.SyncEnd.class, read(early));
                server.outLinks(Map.of("r1", R1));
                early.setSoTimeout(5_000);
                assertEquals(-1, early.getInputStream().read(), "connected before the plan: disconnected to come back");
            }
            try (Socket s = RawRouter.hello(server, "r1")) {
                assertEquals(new ControlMessage.OutLinks(R1), read(s));
                assertEquals(FLOW.withVersion(1), read(s));
                assertInstanceOf(ControlMessage.SyncEnd.class, read(s));
            }
            try (Socket s = RawRouter.hello(server, "r2")) {
                assertInstanceOf(ControlMessage.SyncEnd.class, read(s), "a router the plan leaves out is told nothing of links");
            }
            assertThrows(IllegalArgumentException.class, () -> server.outLinks(Map.of("r9", R1)));
        }
    }

    private static ControlMessage read(Socket s) throws Exception {
        return RawRouter.read(s).message();
    }
}
