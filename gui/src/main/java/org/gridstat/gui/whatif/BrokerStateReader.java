package org.gridstat.gui.whatif;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.gridstat.broker.topology.Topology;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerException;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.sim.whatif.State;

/**
 * The broker's state for a preview, read at the moment the operator asks (not the console's last
 * picture, which may be seconds old): {@code GET /topology}, {@code /variables} and
 * {@code /subscriptions}, the subscriptions in id order, the order the broker admitted them in,
 * which decides who gets the room when a fresh broker is fed them. Each subscription's rate is
 * taken as its exact interval, so the preview admits what the broker holds, not a rounding of it.
 */
final class BrokerStateReader {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private final BrokerConnection broker;

    BrokerStateReader(BrokerConnection broker) {
        this.broker = broker;
    }

    /** Why the state could not be read, in the operator's words. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    State read() throws Unreadable {
        Topology topology;
        try {
            topology = TopologyDocument.parse(get("/topology"));
        } catch (IllegalArgumentException e) {
            throw new Unreadable("cannot read the broker's topology: " + e.getMessage());
        }
        List<State.Variable> variables = new ArrayList<>();
        List<State.Subscription> subscriptions = new ArrayList<>();
        try {
            for (JsonNode v : list(get("/variables"), "/variables")) {
                variables.add(new State.Variable(v.path("name").asText(), v.path("router").asText(),
                        v.path("frameBytes").asInt(), v.path("intervalNanos").asLong(),
                        ServiceClass.valueOf(v.path("serviceClass").asText("BE")), v.path("correlationGroup").asText("")));
            }
            List<JsonNode> subs = new ArrayList<>();
            list(get("/subscriptions"), "/subscriptions").forEach(subs::add);
            subs.sort(Comparator.comparingLong(s -> s.path("id").asLong()));
            for (JsonNode s : subs) {
                QosDocument q = JSON.treeToValue(s.path("qos"), QosDocument.class);
                subscriptions.add(new State.Subscription(Long.toString(s.path("id").asLong()), s.path("variable").asText(),
                        s.path("subscriberRouter").asText(), s.path("subscriberLink").asText(), q.withoutRate().toSpec()));
            }
            return new State(topology, variables, subscriptions);
        } catch (IOException | IllegalArgumentException e) {
            throw new Unreadable("cannot read the broker's variables and subscriptions: " + e.getMessage());
        }
    }

    private JsonNode get(String path) throws Unreadable {
        BrokerConnection.Answer a;
        try {
            a = broker.request("GET", path, null);
        } catch (BrokerException e) {
            throw new Unreadable("cannot read " + path + " from the broker: " + e.getMessage());
        }
        if (a.status() != 200) {
            throw new Unreadable(path + ": the broker answered " + a.status());
        }
        try {
            return JSON.readTree(a.body());
        } catch (IOException e) {
            throw new Unreadable(path + ": not JSON: " + e.getMessage());
        }
    }

    private static JsonNode list(JsonNode n, String path) {
        if (!n.isArray()) {
            throw new IllegalArgumentException(path + ": expected a list");
        }
        return n;
    }
}
