package org.gridstat.statusrouter.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.control.ControlFrame;
import org.gridstat.core.control.ControlMessage;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.time.SystemClock;
import org.junit.jupiter.api.Test;

/**
 * A router takes the out-links its broker gives after Hello: it runs them beside its own (which
 * win over a broker link of the same name, refused with the reason), on the data port it had, and
 * forwards the broker's flows over them. The same links again leave the data plane as it is.
 */
class BrokerOutLinksTest {
    @Test
    void theBrokersLinksAreAppliedBesideTheOwnAndCarryItsFlows() throws Exception {
        List<Long> atOwn = new CopyOnWriteArrayList<>();
        List<Long> atCc = new CopyOnWriteArrayList<>();
        InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
        try (ServerSocket broker = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             Subscriber own = Subscriber.open(loopback, e -> atOwn.add(e.sequence()));
             Subscriber cc = Subscriber.open(loopback, e -> atCc.add(e.sequence()))) {
            RouterSettings s = RouterSettings.of("r1", "127.0.0.1:0", 1, "auto", 1 << 20,
                    new String[] {"name=own address=127.0.0.1:" + own.localAddress().getPort()}, new String[0],
                    new String[0], EstimatorSettings.DEFAULT.periodNanos(), EstimatorSettings.DEFAULT.weight(), 1024);
            RouterPlane plane = new RouterPlane(s);
            InetSocketAddress dataPort = plane.current().localAddress();
            ControlChannelClient client = new ControlChannelClient("r1",
                    List.of((InetSocketAddress) broker.getLocalSocketAddress()), plane.current(), 0).takingOutLinksInto(plane);
            try {
                client.start();
                broker.setSoTimeout(10_000);
                try (Socket session = broker.accept()) {
                    session.setSoTimeout(10_000);
                    assertEquals(new ControlMessage.Hello("r1"), read(session));

                    ControlMessage.OutLinks links = new ControlMessage.OutLinks(List.of(
                            OutLink.of("own", Endpoint.parse("127.0.0.1:9"), 1_000_000),
                            OutLink.of("cc", Endpoint.parse("127.0.0.1:" + cc.localAddress().getPort()), 1_250_000)));
                    write(session, 1, links);
                    ControlMessage.Nack nack = assertInstanceOf(ControlMessage.Nack.class, read(session));
                    assertEquals(1, nack.sequence());
                    assertEquals("out-link 'own' is configured in the router's own file, which wins", nack.reason());
                    assertEquals(List.of("own", "cc"), plane.current().outLinks(), "the broker's link after the own");
                    assertEquals(dataPort, plane.current().localAddress(), "the data port is kept");

                    write(session, 2, new ControlMessage.InstallFlow(1, 5, "cc",
                            FlowSpec.of(77, ServiceClass.HRT, 20_000, 0, 1_000_000, 20, ""), new long[0], 0, 0));
                    assertEquals(new ControlMessage.Ack(2), read(session));
                    write(session, 3, new ControlMessage.SyncEnd());
                    assertEquals(new ControlMessage.Ack(3), read(session));

                    DataPlane running = plane.current();
                    write(session, 4, links);
                    assertInstanceOf(ControlMessage.Nack.class, read(session));
                    assertSame(running, plane.current(), "the same links again: no restart");

                    try (Publisher p = Publisher.connect(dataPort)) {
                        Publication pub = p.publication(VariableId.of(5), ServiceClass.HRT, null);
                        for (int i = 0; i < 10; i++) {
                            pub.publish(i, SystemClock.INSTANCE.nanos());
                        }
                        long end = System.nanoTime() + 10_000_000_000L;
                        while (atCc.size() < 10 && System.nanoTime() < end) {
                            Thread.sleep(5);
                        }
                    }
                    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), atCc, "the flow runs on the broker's link");
                    assertEquals(List.of(), atOwn);
                }
            } finally {
                client.close();
                plane.close();
            }
        }
    }

    private static void write(Socket s, long seq, ControlMessage m) throws Exception {
        OutputStream out = s.getOutputStream();
        out.write(ControlCodec.encode(seq, m));
        out.flush();
    }

    private static ControlMessage read(Socket s) throws Exception {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        ControlFrame f = ControlCodec.decode(ByteBuffer.wrap(body));
        assertTrue(f.valid(), f.toString());
        return f.message();
    }
}
