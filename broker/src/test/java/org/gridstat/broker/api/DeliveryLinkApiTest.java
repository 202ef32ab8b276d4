package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.gridstat.broker.BrokerReplica;
import org.gridstat.broker.store.ZooKeeperFixture;
import org.gridstat.broker.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscription over a delivery link the topology does not give its router is refused before
 * admission: 400 with the reason, nothing reserved or stored, no subscription id spent.
 */
class DeliveryLinkApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPOLOGY = String.join("\n",
            "routers:",
            "  - {id: a, capacity: 100000, address: 127.0.0.1:19470}",
            "  - id: c",
            "    capacity: 100000",
            "    address: 127.0.0.1:19480",
            "    delivery: [{name: cc, address: 127.0.0.1:19471}]",
            "links:",
            "  - {between: [a, c], bandwidth: 12500000, delay: 1ms}",
            "");

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aLinkTheSubscriberRouterDoesNotHaveIsRefusedAndNothingIsStored() throws Exception {
        try (ZooKeeperFixture zk = new ZooKeeperFixture(dir)) {
            CuratorFramework client = zk.client();
            BrokerReplica leader = new BrokerReplica(client, "/gridstat", new BrokerReplica.Settings("one",
                    new InetSocketAddress("127.0.0.1", 0), "http://127.0.0.1:1/one"), Topology.parse(TOPOLOGY, "test"));
            leader.start();
            ManagementApi api = null;
            try {
                long end = System.nanoTime() + 20_000_000_000L;
                while (!leader.isLeader()) {
                    assertTrue(System.nanoTime() < end, "elected");
                    Thread.sleep(10);
                }
                api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), leader);
                assertEquals(201, call(api, "/api/v1/variables", "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\","
                        + "\"frameBytes\":260,\"rateHz\":60,\"serviceClass\":\"HRT\"}").statusCode());

                HttpResponse<String> ccx = call(api, "/api/v1/subscriptions", subscription("ccx"));
                assertEquals(400, ccx.statusCode(), ccx.body());
                assertEquals("router c has no delivery link 'ccx' (its delivery links: cc)",
                        JSON.readTree(ccx.body()).get("error").asText());
                assertEquals(0, JSON.readTree(get(api, "/api/v1/subscriptions")).size());
                assertEquals(0, JSON.readTree(get(api, "/api/v1/flows")).size());
                assertEquals(0, client.getChildren().forPath("/gridstat/subscriptions").size(), "nothing stored");

                HttpResponse<String> cc = call(api, "/api/v1/subscriptions", subscription("cc"));
                assertEquals(201, cc.statusCode(), cc.body());
                assertEquals(1, JSON.readTree(cc.body()).get("id").asLong(), "the refusal spent no id");
            } finally {
                if (api != null) {
                    api.close();
                }
                leader.close();
            }
        }
    }

    private static String subscription(String link) {
        return "{\"variable\":\"s1/pmu1/freq\",\"subscriberRouter\":\"c\",\"subscriberLink\":\"" + link + "\","
                + "\"qos\":{\"rateHz\":60,\"latencyBoundMs\":50,\"serviceClass\":\"HRT\"}}";
    }

    private HttpResponse<String> call(ManagementApi api, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String get(ManagementApi api, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.address().getPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
