package org.gridstat.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.BrokerSubscription;
import org.gridstat.client.DeclaredVariable;
import org.gridstat.client.SubscriptionRejectedException;
import org.gridstat.core.model.QosSpec;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.gateway.ingest.VariableNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker subscriptions of a gateway's streams: each PMU's samples at the stream's rate and its
 * description once a second, at the stream's router and link.
 *
 * <p>A subscription the broker already holds (same variable, router, link and QoS: the gateway's
 * own from before a restart or a crash) is taken again rather than made twice, so restarts do not
 * pile up reservations. A variable not declared yet (its substation's gateway not started) is
 * waited for on a thread of its own, asked again every two seconds and logged once a minute; a
 * declared variable the broker refuses fails the start with the broker's reason.
 */
final class StreamSubscriptions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamSubscriptions.class);
    private static final long RETRY_MILLIS = 2_000;
    private static final long LOG_EVERY_NANOS = 60_000_000_000L;

    /** One subscription a stream needs. */
    record Wanted(String stream, String variable, String router, String link, QosSpec qos) {
    }

    private final BrokerConnection broker;
    private final List<Wanted> waiting = new ArrayList<>();
    private Thread thread;
    private volatile boolean closed;

    StreamSubscriptions(BrokerConnection broker) {
        this.broker = broker;
    }

    /** What the streams need, in order: each PMU's samples, then its description. */
    static List<Wanted> of(List<PhasorGateway.Stream> streams) {
        List<Wanted> all = new ArrayList<>();
        for (PhasorGateway.Stream st : streams) {
            PhasorGateway.Subscription u = st.subscription();
            if (u == null) {
                continue;
            }
            for (String v : st.settings().pmuVariables()) {
                all.add(new Wanted(st.settings().name(), v, u.router(), u.link(), QosSpec.builder().rateHz(u.rateHz())
                        .latencyBound(u.latencyBound()).paths(u.paths()).serviceClass(u.serviceClass()).build()));
                all.add(new Wanted(st.settings().name(), VariableNames.description(v), u.router(), u.link(),
                        QosSpec.builder().interval(PhasorGateway.DESCRIPTION_EVERY).latencyBound(Duration.ofSeconds(1))
                                .paths(1).serviceClass(ServiceClass.BE).build()));
            }
        }
        return all;
    }

    /**
     * Makes (or takes again) the subscriptions of declared variables now; waits for the others.
     *
     * @throws SubscriptionRejectedException if the broker refuses one of a declared variable
     */
    void start(List<Wanted> wanted) throws SubscriptionRejectedException {
        Set<String> declared = declared();
        List<BrokerSubscription> held = broker.subscriptions();
        for (Wanted w : wanted) {
            if (declared.contains(w.variable())) {
                ensure(w, held);
            } else {
                waiting.add(w);
            }
        }
        if (!waiting.isEmpty()) {
            LOG.warn("waiting for {} to be declared before subscribing to them", names());
            thread = new Thread(this::retry, "gridstat-gateway-subscriptions");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Subscriptions still waiting for their variable's declaration. */
    synchronized int waiting() {
        return waiting.size();
    }

    private void retry() {
        long lastLog = System.nanoTime();
        while (!closed && waiting() > 0) {
            try {
                Thread.sleep(RETRY_MILLIS);
                Set<String> declared = declared();
                List<BrokerSubscription> held = broker.subscriptions();
                synchronized (this) {
                    for (var it = waiting.iterator(); it.hasNext(); ) {
                        Wanted w = it.next();
                        if (declared.contains(w.variable())) {
                            ensure(w, held);
                            it.remove();
                        }
                    }
                }
                if (waiting() > 0 && System.nanoTime() - lastLog >= LOG_EVERY_NANOS) {
                    LOG.warn("still waiting for {} to be declared", names());
                    lastLog = System.nanoTime();
                }
            } catch (InterruptedException e) {
                return;
            } catch (SubscriptionRejectedException | RuntimeException e) {
                // the broker refused or could not be reached: said, and asked again next round
                if (System.nanoTime() - lastLog >= LOG_EVERY_NANOS) {
                    LOG.error("subscribing the streams' variables failed, retrying: {}", e.getMessage());
                    lastLog = System.nanoTime();
                }
            }
        }
    }

    private void ensure(Wanted w, List<BrokerSubscription> held) throws SubscriptionRejectedException {
        for (BrokerSubscription s : held) {
            if (s.variable().equals(w.variable()) && s.subscriberRouter().equals(w.router())
                    && s.subscriberLink().equals(w.link()) && s.qos().equals(w.qos())) {
                LOG.info("stream {}: {} already subscribed over {}/{} (subscription {})", w.stream(), w.variable(),
                        w.router(), w.link(), s.id());
                return;
            }
        }
        BrokerSubscription s = broker.subscribe(w.variable(), w.router(), w.link(), w.qos());
        LOG.info("stream {}: subscribed to {} over {}/{} (subscription {})", w.stream(), w.variable(), w.router(),
                w.link(), s.id());
    }

    private Set<String> declared() {
        return broker.variables().stream().map(DeclaredVariable::name).collect(Collectors.toSet());
    }

    private synchronized String names() {
        return waiting.stream().map(Wanted::variable).distinct().collect(Collectors.joining(", "));
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
