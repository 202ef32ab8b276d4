package org.gridstat.broker.hierarchy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.management.SubscriptionDocument;
import org.gridstat.core.management.SubscriptionDocument.HopDocument;
import org.gridstat.core.model.QosSpec;

/**
 * What a parent broker asks of a leaf broker: a cloud's variables, subscriptions and routers.
 * {@link #over(BrokerConnection)} speaks to a leaf's management API.
 */
public interface LeafBroker {
    List<DeclaredVariable> variables();

    DeclaredVariable declare(VariableDeclaration d);

    /**
     * A segment's subscription under an idempotency key; see
     * {@link BrokerConnection#subscribe(String, String, String, QosSpec, Duration, Duration, String)}.
     * The same request repeated with the same key is answered with the first answer (the
     * subscription it made) while the leaf remembers the key, and is made at most once.
     */
    BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink, QosSpec qos,
                                 Duration downstreamBudget, Duration minRestDelay, String idempotencyKey)
            throws SubscriptionRejectedException;

    /** False if the leaf does not know the subscription (gone already); a repeat under the same key answers as the first. */
    boolean unsubscribe(long id, String idempotencyKey);

    List<BrokerSubscription> subscriptions();

    /** The hops of a subscription's first path, from the leaf's answer. */
    List<HopDocument> hops(long id);

    /** Every router of the leaf's topology. */
    List<String> routers();

    static LeafBroker over(BrokerConnection c) {
        ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        return new LeafBroker() {
            @Override
            public List<DeclaredVariable> variables() {
                return c.variables();
            }

            @Override
            public DeclaredVariable declare(VariableDeclaration d) {
                return c.declare(d);
            }

            @Override
            public BrokerSubscription subscribe(String variable, String subscriberRouter, String subscriberLink,
                                                QosSpec qos, Duration downstreamBudget, Duration minRestDelay,
                                                String idempotencyKey) throws SubscriptionRejectedException {
                return c.subscribe(variable, subscriberRouter, subscriberLink, qos, downstreamBudget, minRestDelay,
                        idempotencyKey);
            }

            @Override
            public boolean unsubscribe(long id, String idempotencyKey) {
                return c.unsubscribe(id, idempotencyKey);
            }

            @Override
            public List<BrokerSubscription> subscriptions() {
                return c.subscriptions();
            }

            @Override
            public List<HopDocument> hops(long id) {
                try {
                    SubscriptionDocument d = json.readValue(c.request("GET", "/subscriptions/" + id, null).body(),
                            SubscriptionDocument.class);
                    return d.paths().get(0);
                } catch (IOException | RuntimeException e) {
                    throw new IllegalStateException("cannot read subscription " + id + " back: " + e, e);
                }
            }

            @Override
            public List<String> routers() {
                try {
                    JsonNode routers = json.readTree(c.request("GET", "/topology", null).body()).get("routers");
                    List<String> ids = new ArrayList<>();
                    routers.forEach(r -> ids.add(r.get("id").asText()));
                    return ids;
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read the topology: " + e.getMessage(), e);
                }
            }
        };
    }

    /** Each cloud's connection as a leaf. */
    static Map<String, LeafBroker> over(Map<String, BrokerConnection> connections) {
        return connections.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> over(e.getValue())));
    }
}
