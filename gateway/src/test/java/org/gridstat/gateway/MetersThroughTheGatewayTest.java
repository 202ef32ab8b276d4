package org.gridstat.gateway;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.gateway.aggregate.AggregatePayload;
import org.gridstat.gateway.aggregate.MeterFormat;
import org.junit.jupiter.api.Test;

/**
 * Meters configured through the gateway's properties, as an operator configures them: 20 meters of
 * two regions connect, each sends readings, and the router receives one aggregate per region and
 * interval that counts them.
 */
class MetersThroughTheGatewayTest {
    @Test
    void meterConnectionsArriveAtTheRouterAsOneAggregatePerRegionAndInterval() throws Exception {
        List<byte[]> region1 = new CopyOnWriteArrayList<>();
        long region1Id = VariableId.ofName(VariableName.of("utilityA/meters/region-1")).value();
        try (Subscriber router = Subscriber.open(new InetSocketAddress("127.0.0.1", 0), e -> {
            if (e.variableId() == region1Id) {
                byte[] b = new byte[e.payloadLength()];
                e.copyPayload(b, 0);
                region1.add(b);
            }
        })) {
            int port;
            try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("publish.router", "r1");
            p.put("publish.address", "127.0.0.1:" + router.localAddress().getPort());
            p.put("meters", new String[] {"listen=127.0.0.1:" + port + " prefix=utilityA/meters interval=1s grace=500ms"});
            try (PhasorGateway g = PhasorGateway.start(GatewayConfiguration.settings(p), null)) {
                List<Socket> meters = new ArrayList<>();
                CRC32C crc = new CRC32C();
                try {
                    for (int m = 0; m < 20; m++) {
                        Socket s = new Socket("127.0.0.1", port);
                        meters.add(s);
                        ByteBuffer hello = ByteBuffer.allocate(MeterFormat.HELLO_LENGTH);
                        MeterFormat.writeHello(hello, 1000 + m, m % 2 == 0 ? 1 : 2, crc);
                        s.getOutputStream().write(hello.array());
                    }
                    // every meter reads once a second for three seconds, stamped on the second's grid
                    long second = System.currentTimeMillis() / 1000 + 1;
                    for (int k = 0; k < 3; k++) {
                        long at = (second + k) * 1000;
                        while (System.currentTimeMillis() < at + 100) {
                            Thread.sleep(5);
                        }
                        for (int m = 0; m < 20; m++) {
                            ByteBuffer r = ByteBuffer.allocate(MeterFormat.READING_LENGTH);
                            MeterFormat.writeReading(r, (at + 100) * 1000, 0, 0b111, 100f + m, 10f, 230f, crc);
                            OutputStream out = meters.get(m).getOutputStream();
                            out.write(r.array());
                        }
                    }
                    long end = System.nanoTime() + 10_000_000_000L;
                    while (region1.size() < 3 && System.nanoTime() < end) {
                        Thread.sleep(20);
                    }
                    assertEquals(20, g.meters().get(0).connections(), "every meter connected, one gateway port");
                } finally {
                    for (Socket s : meters) {
                        s.close();
                    }
                }
                assertTrue(region1.size() >= 3, "an aggregate a second for region 1: " + region1.size());
                AggregatePayload a = new AggregatePayload();
                for (int i = 0; i < 3; i++) {
                    assertTrue(a.wrap(region1.get(i), 0, region1.get(i).length));
                    assertEquals(1, a.regionId());
                    assertEquals(10, a.reporting(), "the ten meters of region 1 in interval " + i);
                }
            }
        }
    }
}
