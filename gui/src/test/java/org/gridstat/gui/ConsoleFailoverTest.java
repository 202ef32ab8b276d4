package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.events.BrokerEvents;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.EventStreamFeed;
import org.gridstat.gui.feed.FeedSink;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.view.ConsoleWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console across a failover (TestFX, headless Monocle): two real broker replicas over one
 * ZooKeeper and four real routers that list both ({@link LiveNetwork#withStandby()}). The console
 * is given both replicas, the standby first, so it is sent to the leader by the standby's answer.
 * The leader is stopped: the console says it is not live, keeps the last flows, follows the new
 * leader, and is live again with the same flows, the new leader's, freshly reported.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ConsoleFailoverTest {
    private LiveNetwork network;
    private ConsoleModel model;
    private EventStreamFeed feed;
    private BrokerActions actions;
    private ConsoleWindow window;
    /** Every connection state the feed gave the console, in order. */
    private final List<ConnectionState> states = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        FxToolkit.registerPrimaryStage();
        network = LiveNetwork.withStandby();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (window != null) {
                Screenshots.saveEachView(window, "failover");
            }
        } finally {
            if (feed != null) {
                feed.close();
            }
            if (window != null) {
                FxToolkit.setupFixture(() -> window.stop());
            }
            if (actions != null) {
                actions.close();
            }
            network.close();
            FxToolkit.cleanupStages();
        }
    }

    @Test
    void afterTheLeaderStopsTheConsoleFollowsTheNewLeaderAndIsLiveAgainWithTheSameFlows() throws Exception {
        assertEquals("b1", network.leaderId());
        HttpResponse<String> admitted = network.send("POST", "/subscriptions", "{\"variable\":\"" + LiveNetwork.FREQ
                + "\",\"subscriberRouter\":\"r4\",\"subscriberLink\":\"cc\",\"qos\":{\"rateHz\":25,\"latencyBoundMs\":50,"
                + "\"paths\":2,\"serviceClass\":\"HRT\"}}");
        assertEquals(201, admitted.statusCode(), admitted.body());
        LiveNetwork.await(() -> reported(get()), 15_000, "b1 lists the subscription's flows with statistics");

        openConsole(List.of(network.api("b2"), network.api("b1"))); // the standby first: it names the leader
        waitFor(20, () -> live() && replicaShown().equals("replica b1 (leader)"), "the console live on b1");
        waitFor(10, () -> tableFlows().equals(ShownFlows.ofBroker(get())), "the flow table shows b1's flows");
        Set<String> before = tableFlows();
        assertEquals(5, before.size(), before.toString());
        int statesBefore = states.size();

        assertEquals("b1", network.stopLeader());
        // one pulse's picture: the status bar and the flows view say it, and the last flows stay shown
        waitFor(10, () -> fx(() -> !window.shown().live() && !window.status().state().getText().contains("LIVE")
                && window.flows().staleText() != null && window.flows().staleText().contains("not live")
                && ShownFlows.ofTable(window.flows().flows().shownRows()).equals(before)),
                "the console says it is not live, keeping the last flows");

        LiveNetwork.await(() -> "b2".equals(network.leaderId()), 20_000, "b2 leads");
        LiveNetwork.await(() -> network.connected(List.of("r1", "r2", "r3", "r4")) && reported(get()), 30_000,
                "the routers reconnected to b2 and report their flows");
        long failedOverAt = System.currentTimeMillis();
        waitFor(30, () -> live() && replicaShown().equals("replica b2 (leader)"), "the console live on b2");
        waitFor(10, () -> tableFlows().equals(ShownFlows.ofBroker(get())), "the flow table shows b2's flows");
        assertEquals(before, tableFlows(), "the same flows: the new leader resumed the state b1 stored");
        waitFor(10, () -> freshestReport() >= failedOverAt, "flow figures reported to b2 after it took over");
        assertTrue(fx(() -> window.status().state().getText()).contains("LIVE"));
        waitFor(10, () -> fx(() -> window.flows().staleText() == null && window.devices().staleText() == null
                && window.alarms().staleText() == null && window.charts().staleText() == null
                && !window.topology().marksStale()), "no view marks what it shows as stale");
        assertTrue(states.subList(statesBefore, states.size()).stream()
                .anyMatch(s -> s.kind() != ConnectionState.Kind.LIVE), "the failover was said: " + states);
        assertEquals(network.api("b2").toString(), states.get(states.size() - 1).broker(),
                "the stream reads the new leader");
    }

    private void openConsole(List<URI> replicas) throws Exception {
        model = new ConsoleModel();
        // a 1 s keepalive so a dead stream is given up after 3 s rather than 15
        feed = new EventStreamFeed(replicas, EventStreamFeed.READ_PERIOD, Duration.ofSeconds(2),
                new BrokerEvents.Settings(Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(500),
                        8 * 1024 * 1024, Duration.ofSeconds(2)), System::currentTimeMillis);
        actions = new BrokerActions(BrokerConnection.connect(replicas, Duration.ofSeconds(10), Duration.ofSeconds(15)));
        FxToolkit.setupStage(s -> {
            window = new ConsoleWindow(model, actions, AdmissionPreview.UNAVAILABLE,
                    String.join(", ", replicas.stream().map(URI::toString).toList()));
            s.setScene(window.scene());
            s.show();
            window.start();
        });
        feed.start(new FeedSink() { // the console's model, and a record of the states it was given
            @Override
            public void received(Resource resource, Object value, long receivedAtMillis) {
                model.received(resource, value, receivedAtMillis);
            }

            @Override
            public void connection(ConnectionState state) {
                states.add(state);
                model.connection(state);
            }
        });
    }

    private boolean live() {
        return fx(() -> window.shown() != null && window.shown().connection().kind() == ConnectionState.Kind.LIVE
                && window.status().state().getText().contains("LIVE"));
    }

    private String replicaShown() {
        return fx(() -> ((javafx.scene.control.Label) window.scene().lookup("#leader")).getText());
    }

    private long freshestReport() {
        return fx(() -> window.shown().flows().stream().filter(f -> f.value().statistics() != null)
                .mapToLong(f -> f.value().statistics().reportedAtMillis()).max().orElse(0));
    }

    private JsonNode get() {
        try {
            return network.get("/flows");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean reported(JsonNode flows) {
        return flows.size() == 5 && ShownFlows.allReported(flows);
    }

    private Set<String> tableFlows() {
        return ShownFlows.ofTable(fx(() -> window.flows().flows().shownRows()));
    }

    private static <T> T fx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitFor(int seconds, Callable<Boolean> condition, String what) {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> {
                try {
                    return condition.call();
                } catch (RuntimeException e) {
                    return false; // e.g. no replica leads for the moment
                }
            });
        } catch (java.util.concurrent.TimeoutException e) {
            fail("timed out after " + seconds + " s waiting until " + what);
        }
    }
}
