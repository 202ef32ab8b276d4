package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.client.events.BrokerEvents;
import org.gridstat.gui.feed.ConsoleFeed;
import org.gridstat.gui.feed.EventStreamFeed;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.FlowKey;
import org.gridstat.gui.model.Subscription;
import org.gridstat.gui.view.ConsoleWindow;
import org.gridstat.gui.view.FlowRow;
import org.gridstat.gui.view.Shown;
import org.gridstat.gui.whatif.SimulatedPreview;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console driven as an operator would (TestFX, headless Monocle), against a real broker with
 * its management API and ZooKeeper and four real status routers ({@link LiveNetwork}). What the
 * console shows and does is checked against the broker's own API. Each test saves a PNG of every
 * view under target/screenshots.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OperatorConsoleTest {
    private static LiveNetwork network;
    private static Stage stage;
    private final FxRobot robot = new FxRobot();
    private ConsoleModel model;
    private ConsoleFeed feed;
    private BrokerActions actions;
    private ConsoleWindow window;

    @BeforeAll
    static void network() throws Exception {
        stage = FxToolkit.registerPrimaryStage();
        network = new LiveNetwork();
    }

    @AfterAll
    static void stopNetwork() throws Exception {
        if (network != null) {
            network.close();
        }
        FxToolkit.cleanupStages();
    }

    @BeforeEach
    void openConsole() throws Exception {
        model = new ConsoleModel();
        // the console's own feed; a 1 s keepalive so a dead stream is given up after 3 s rather than 15
        feed = new EventStreamFeed(List.of(network.api()), EventStreamFeed.READ_PERIOD, Duration.ofSeconds(2),
                new BrokerEvents.Settings(Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(500),
                        8 * 1024 * 1024, Duration.ofSeconds(2)), System::currentTimeMillis);
        actions = new BrokerActions(BrokerConnection.connect(List.of(network.api()), Duration.ofSeconds(10),
                Duration.ofSeconds(15)));
        FxToolkit.setupStage(s -> {
            window = new ConsoleWindow(model, actions, new SimulatedPreview(BrokerConnection.connect(List.of(network.api()),
                    Duration.ofSeconds(10), Duration.ofSeconds(15))), network.api().toString());
            s.setScene(window.scene());
            s.setX(0);
            s.setY(0);
            s.show();
            s.toFront();
            window.start();
        });
        feed.start(model);
        waitFor(20, () -> window.shown() != null && window.shown().connection().kind() == ConnectionState.Kind.LIVE,
                "the console live");
    }

    @AfterEach
    void closeConsole(TestInfo test) throws Exception {
        try {
            Screenshots.saveEachView(window, test.getTestMethod().orElseThrow().getName());
        } finally {
            feed.close();
            FxToolkit.setupFixture(() -> window.stop());
            actions.close();
        }
    }

    @Test
    @Order(1)
    void theFlowTableShowsTheBrokersFlowsAndCtrlDigitsSwitchViews() throws Exception {
        HttpResponse<String> admitted = network.send("POST", "/subscriptions", subscription(LiveNetwork.FREQ, 25, 50, 2,
                "HRT"));
        assertEquals(201, admitted.statusCode(), admitted.body());
        // the routers report the new flows within a report period; the console shows them within the broker's pulse and its own
        LiveNetwork.await(() -> ShownFlows.ofBroker(get("/flows")).size() == 5 && ShownFlows.allReported(get("/flows")), 15_000,
                "the broker lists the subscription's five flows with statistics");
        waitFor(10, () -> tableFlows().equals(ShownFlows.ofBroker(get("/flows"))), "the flow table shows the broker's flows");
        List<FlowRow> rows = fx(() -> window.flows().flows().shownRows());
        for (JsonNode f : get("/flows")) {
            FlowRow row = rows.stream().filter(r -> r.router().equals(f.get("router").asText())
                    && r.key().flowId() == f.get("flowId").asLong()).findFirst().orElseThrow();
            assertEquals(LiveNetwork.FREQ, row.variable());
            assertEquals("r1", row.publisher());
            assertEquals(f.get("link").asText(), row.link());
            assertEquals(f.get("serviceClass").asText(), row.serviceClass());
            assertEquals(f.get("assuredBytesPerSecond").asLong(), row.assured());
            assertEquals(f.get("ceilingBytesPerSecond").asLong(), row.ceiling());
            assertEquals(f.get("minimumBytesPerSecond").asLong(), row.minimum(), "MR as the broker gives it");
            assertNotNull(row.subscribers(), "each flow serves the subscription: " + row);
        }

        List<String> columns = fx(() -> window.flows().flows().table().getColumns().stream()
                .map(javafx.scene.control.TableColumn::getText).toList());
        assertTrue(columns.containsAll(List.of("AR", "MR", "CR", "demand", "state", "latency p99", "reassigned",
                "reassignments", "held", "deadline misses", "drops")), columns.toString());

        // each flow's latency p99 and reassignments are the broker's figures of the same router report
        for (JsonNode f : get("/flows")) {
            FlowKey key = new FlowKey(f.get("router").asText(), f.get("flowId").asLong());
            JsonNode[] broker = new JsonNode[1];
            FlowRow[] shown = new FlowRow[1];
            waitFor(10, () -> {
                broker[0] = flowOf(get("/flows"), key).path("statistics");
                shown[0] = fx(() -> window.flows().flows().shownRows()).stream().filter(r -> r.key().equals(key))
                        .findFirst().orElse(null);
                return shown[0] != null && shown[0].asOfMillis() == broker[0].path("reportedAtMillis").asLong();
            }, "the table shows " + key + " as of the broker's latest report");
            assertEquals(broker[0].get("latencyP99Micros").asLong(), shown[0].latencyP99Micros(), broker[0].toString());
            assertEquals(broker[0].get("reassignments").asLong(), shown[0].reassignments(), broker[0].toString());
            assertTrue(shown[0].latencyP99Micros() > 0, "25 events a second go through " + key
                    + ": its router measured their queueing in each 250 ms report period: " + broker[0]);
            // as drawn: the cell writes its line's figure (the line may be of a newer report by now)
            List<String> latencyCell = fx(() -> cellText("latency p99", key, r -> Shown.latency(r.latencyP99Micros())));
            assertEquals(latencyCell.get(1), latencyCell.get(0));
            assertTrue(latencyCell.get(0).matches("(≤ )?[0-9.]+ (µs|ms|s)"), latencyCell.get(0));
            List<String> reassignmentsCell = fx(() -> cellText("reassignments", key, r -> Shown.count(r.reassignments())));
            assertEquals(reassignmentsCell.get(1), reassignmentsCell.get(0));
        }
        // sortable like the others: by latency, highest first
        fx(() -> {
            TableView<FlowRow> t = window.flows().flows().table();
            TableColumn<FlowRow, ?> latency = column("latency p99");
            latency.setSortType(TableColumn.SortType.DESCENDING);
            t.getSortOrder().setAll(List.of(latency));
            return null;
        });
        List<Long> byLatency = fx(() -> window.flows().flows().shownRows()).stream().map(FlowRow::latencyP99Micros).toList();
        List<Long> highestFirst = new java.util.ArrayList<>(byLatency);
        highestFirst.sort(java.util.Comparator.reverseOrder());
        assertEquals(highestFirst, byLatency);
        fx(() -> {
            window.flows().flows().table().getSortOrder().clear();
            return null;
        });

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        robot.clickOn("#flowFilter").write("r3");
        waitFor(5, () -> fx(() -> window.flows().flows().shownRows()).size() == 2, "the filter leaves the flows into and out of r3");
        for (FlowRow r : fx(() -> window.flows().flows().shownRows())) {
            assertTrue(r.router().equals("r3") || r.link().equals("r3"), r.toString());
        }
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL).press(KeyCode.BACK_SPACE)
                .release(KeyCode.BACK_SPACE);

        waitFor(10, () -> fx(() -> window.devices().table().getItems().size()) == 4, "the gateway's four devices");
        java.util.Map<String, String> health = new java.util.TreeMap<>();
        fx(() -> window.devices().table().getItems()).forEach(d -> health.put(d.device(), d.health()));
        assertEquals(java.util.Map.of("pmu-1", "good", "pmu-2", "alarm", "pdc-east", "stale", "pmu-3", "bad"), health);

        for (int view : new int[] {4, 0, 2, 3, 1}) {
            KeyCode digit = KeyCode.valueOf("DIGIT" + (view + 1));
            robot.press(KeyCode.CONTROL, digit).release(digit, KeyCode.CONTROL);
            waitFor(5, () -> fx(() -> window.tabs().getSelectionModel().getSelectedIndex()) == view,
                    "Ctrl+" + (view + 1) + " shows view " + view);
        }
    }

    @Test
    @Order(2)
    void admittingModifyingAndTearingDownThroughTheConsoleChangeTheBroker() throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        robot.clickOn("#admitButton");
        fillAdmitForm(LiveNetwork.ANGLE, "r4", "cc", "10", "100", "1", "LRT");
        assertFalse(fx(() -> robot.lookup("#whatIf").query().isDisabled()), "a valid form can be previewed");
        robot.clickOn("#admitConfirm");
        assertTrue(confirmationText().contains("Admit a subscription to " + LiveNetwork.ANGLE), confirmationText());
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        waitFor(15, () -> outcome().startsWith("✔ done: admitted as subscription"), "the admission's outcome");
        JsonNode sub = subscriptionOf(LiveNetwork.ANGLE);
        assertNotNull(sub, "the broker holds the subscription admitted through the console");
        assertEquals("r4", sub.get("subscriberRouter").asText());
        assertEquals(10.0, sub.get("qos").get("rateHz").asDouble());
        assertEquals("LRT", sub.get("qos").get("serviceClass").asText());
        long id = sub.get("id").asLong();

        selectSubscription(id, LiveNetwork.ANGLE);
        robot.clickOn("#modifyButton");
        replaceText("#modifyRate", "20");
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        assertTrue(confirmationText().contains("rate 10 Hz → 20 Hz"), confirmationText());
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        waitFor(15, () -> outcome().startsWith("✔ done: subscription " + id + " changed"), "the change's outcome");
        assertEquals(20.0, subscriptionOf(LiveNetwork.ANGLE).get("qos").get("rateHz").asDouble());

        selectSubscription(id, LiveNetwork.ANGLE);
        robot.clickOn("#groupButton");
        replaceText("#modifyGroup", "area-west");
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        assertTrue(confirmationText().contains("correlation group (none) → area-west"), confirmationText());
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        waitFor(15, () -> outcome().contains("subscription " + id + " changed"), "the group change's outcome");
        assertEquals("area-west", subscriptionOf(LiveNetwork.ANGLE).get("qos").get("correlationGroup").asText());

        selectSubscription(id, LiveNetwork.ANGLE);
        robot.clickOn("#tearDownButton");
        assertTrue(confirmationText().startsWith("Tear down subscription " + id), confirmationText());
        // by id: a lookup of ".button:default" ignores the pseudo-class and finds any button, of
        // whichever window comes first (another test's left on the primary stage, say)
        assertTrue(fx(() -> ((javafx.scene.control.Button) robot.lookup("#cancelButton").query()).isDefaultButton()),
                "Enter would cancel a tear-down");
        assertFalse(fx(() -> ((javafx.scene.control.Button) robot.lookup("#confirmButton").query()).isDefaultButton()));
        WaitForAsyncUtils.waitForFxEvents(); // the dialog laid out where it stays, its text wrapped
        robot.clickOn("#confirmButton"); // it takes a deliberate click
        waitFor(15, () -> outcome().equals("✔ done: subscription " + id + " torn down; its reservations are freed"),
                "the tear-down's outcome");
        assertNull(subscriptionOf(LiveNetwork.ANGLE), "the broker no longer holds it");
        waitFor(5, () -> fx(() -> window.flows().subscriptions().table().getItems().stream()
                .noneMatch(s -> s.id() == id)), "the subscription table drops it");
    }

    @Test
    @Order(3)
    void aRejectionShowsTheBrokersReasonAndABadFormIsCaughtBeforeSending() throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        robot.clickOn("#admitButton");
        fillAdmitForm(LiveNetwork.FREQ, "r4", "cc", "25", "50", "7", "HRT");
        assertTrue(fx(() -> robot.lookup("#admitConfirm").query().isDisabled()), "7 paths: Admit stays disabled");
        assertTrue(fx(() -> robot.lookup("#admitProblems").queryAs(Label.class).getText()).contains("paths: 1 to 4"));
        replaceText("#admitPaths", "3"); // valid in form, but the diamond has two node-disjoint paths
        robot.clickOn("#admitConfirm");
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        waitFor(15, () -> outcome().startsWith("✖ rejected by the broker: "), "the rejection");
        HttpResponse<String> direct = network.send("POST", "/subscriptions", subscription(LiveNetwork.FREQ, 25, 50, 3, "HRT"));
        assertEquals(409, direct.statusCode(), direct.body());
        String reason = new com.fasterxml.jackson.databind.ObjectMapper().readTree(direct.body()).get("error").asText();
        assertEquals("✖ rejected by the broker: " + reason, outcome(), "the broker's own reason, as it gave it");
    }

    @Test
    @Order(4)
    void anAlarmLatchesUntilAcknowledgedAndLatchesAgainWhenItRecurs() throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT5).release(KeyCode.DIGIT5, KeyCode.CONTROL);
        network.stopRouter("r2");
        waitFor(15, () -> latchedSessionLost() != null, "r2's lost session latched");
        assertEquals(1, (int) fx(() -> window.topology().latchedAt("r2")), "the topology marks r2");
        AlarmLatch.Entry e = latchedSessionLost();
        assertEquals("WARNING", e.alarm().severity());
        TableView<AlarmLatch.Entry> table = window.alarms().table();
        for (int tries = 0; tries < 5 && fx(() -> table.getSelectionModel().getSelectedItems().stream()
                .noneMatch(x -> x.alarm().kind().equals("SESSION_LOST"))); tries++) {
            robot.clickOn(robot.from(table).lookup(LabeledMatchers.hasText("SESSION_LOST")).<Node>query());
            WaitForAsyncUtils.waitForFxEvents();
        }
        robot.clickOn("#acknowledgeAlarm");
        waitFor(5, () -> latchedSessionLost() == null && sessionLost() != null && sessionLost().acknowledged(),
                "acknowledged: no longer latched, still listed");
        long countBefore = sessionLost().alarm().count();

        network.startRouter("r2");
        LiveNetwork.await(() -> network.connected(List.of("r2")), 15_000, "r2 back");
        network.stopRouter("r2"); // the same alarm again
        waitFor(15, () -> latchedSessionLost() != null, "latched again by the new occurrence");
        assertTrue(latchedSessionLost().alarm().count() > countBefore, "the broker folded the repeat into the alarm");
        network.startRouter("r2");
        LiveNetwork.await(() -> network.connected(List.of("r2")), 15_000, "r2 back");
    }

    @Test
    @Order(5)
    void theConsoleKeepsTheLastStateWhileTheBrokerIsGoneAndIsLiveAgainAfterItRestarts() throws Exception {
        if (subscriptionOf(LiveNetwork.FREQ) == null) {
            assertEquals(201, network.send("POST", "/subscriptions", subscription(LiveNetwork.FREQ, 25, 50, 2, "HRT"))
                    .statusCode());
        }
        waitFor(10, () -> !fx(() -> window.flows().flows().shownRows()).isEmpty(), "flows shown");
        Set<String> before = tableFlows();
        network.stopBroker();
        waitFor(10, () -> window.shown().connection().kind() != ConnectionState.Kind.LIVE, "the console says so");
        String badge = fx(() -> window.status().state().getText());
        assertTrue(badge.contains("STALE") || badge.contains("RECONNECTING"), badge);
        assertEquals(before, tableFlows(), "the last known flows stay shown");
        Screenshots.saveEachView(window, "brokerGone");

        network.startBrokerAgain();
        LiveNetwork.await(() -> network.connected(List.of("r1", "r2", "r3", "r4")), 30_000, "routers reconnected");
        waitFor(20, () -> window.shown().connection().kind() == ConnectionState.Kind.LIVE
                && window.shown().dataAgeMillis() < 2_000, "live again with fresh data");
        waitFor(10, () -> tableFlows().equals(ShownFlows.ofBroker(get("/flows"))), "the flow table matches the restarted broker");
        assertTrue(fx(() -> window.status().state().getText()).contains("LIVE"));
    }

    @Test
    @Order(6)
    void whatIfShowsThePredictionInTheAdmitFormAndAdmitsNothing() throws Exception {
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT2).release(KeyCode.DIGIT2, KeyCode.CONTROL);
        robot.clickOn("#admitButton");
        fillAdmitForm(LiveNetwork.ANGLE, "r4", "cc", "10", "100", "1", "LRT");
        robot.clickOn("#admitSurgeVariable").write(LiveNetwork.FREQ);
        robot.clickOn("#admitSurgeRate").write("200");
        robot.clickOn("#whatIf");
        // the progress shows while it runs; a fast preview may be done before a look could catch it
        waitFor(60, () -> whatIfLines().startsWith("admitted"), "the prediction shown");
        List<String> lines = List.of(whatIfLines().split("\n"));
        System.out.println("what if, admitted:\n  " + String.join("\n  ", lines));
        assertTrue(lines.get(1).startsWith("path r1->"), lines.toString());
        assertTrue(lines.get(1).endsWith("->r4"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("link r") && l.contains(" LRT reservation ")),
                "the links that tighten: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains(LiveNetwork.FREQ + " at 200 Hz")), "the surge stated: " + lines);
        assertFalse(fx(() -> robot.lookup("#whatIfRunning").query().isVisible()), "the progress gone");
        saveDialog("what-if");

        replaceText("#admitPaths", "3"); // the diamond has two node-disjoint paths from r1 to r4
        robot.clickOn("#whatIf");
        waitFor(60, () -> whatIfLines().startsWith("refused:"), "the refusal predicted");
        System.out.println("what if, refused:\n  " + whatIfLines().replace("\n", "\n  "));
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        assertNull(subscriptionOf(LiveNetwork.ANGLE), "a preview admits nothing");
    }

    // --- helpers

    private String whatIfLines() {
        return fx(() -> robot.lookup("#whatIfLines").queryAs(javafx.scene.control.TextArea.class).getText());
    }

    private void saveDialog(String name) throws Exception {
        java.nio.file.Files.createDirectories(Screenshots.FOLDER);
        Screenshots.write(fx(() -> robot.lookup("#admitDialog").query().getScene().snapshot(null)),
                Screenshots.FOLDER.resolve(name + ".png"));
    }

    private static String subscription(String variable, double rate, double boundMs, int paths, String cls) {
        return "{\"variable\":\"" + variable + "\",\"subscriberRouter\":\"r4\",\"subscriberLink\":\"cc\",\"qos\":{\"rateHz\":"
                + rate + ",\"latencyBoundMs\":" + boundMs + ",\"paths\":" + paths + ",\"serviceClass\":\"" + cls + "\"}}";
    }

    private void fillAdmitForm(String variable, String router, String link, String rate, String bound, String paths,
                               String cls) {
        robot.clickOn("#admitVariable").write(variable);
        robot.clickOn("#admitRouter").write(router);
        robot.clickOn("#admitLink").write(link);
        replaceText("#admitRate", rate);
        replaceText("#admitBound", bound);
        replaceText("#admitPaths", paths);
        robot.interact(() -> robot.lookup("#admitClass").<javafx.scene.control.ComboBox<String>>query().setValue(cls));
    }

    private void replaceText(String query, String text) {
        robot.clickOn(query);
        robot.press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.write(text);
    }

    private void selectSubscription(long id, String variable) {
        waitFor(10, () -> fx(() -> window.flows().subscriptions().table().getItems().stream().anyMatch(s -> s.id() == id)),
                "subscription " + id + " shown");
        // a click may land while a pulse replaces the rows: look the cell up again and click until the row is selected
        for (int tries = 0; tries < 5 && !isSelected(id); tries++) {
            Node cell = robot.from(window.flows().subscriptions().table()).lookup(LabeledMatchers.hasText(variable))
                    .query();
            robot.clickOn(cell);
            WaitForAsyncUtils.waitForFxEvents();
        }
        Subscription selected = fx(() -> window.flows().subscriptions().selected());
        assertNotNull(selected);
        assertEquals(id, selected.id());
    }

    private boolean isSelected(long id) {
        Subscription s = fx(() -> window.flows().subscriptions().selected());
        return s != null && s.id() == id;
    }

    private String confirmationText() {
        waitFor(5, () -> robot.lookup("#confirmationText").tryQuery().isPresent(), "a confirmation");
        return fx(() -> robot.lookup("#confirmationText").queryAs(Label.class).getText());
    }

    private String outcome() {
        return fx(() -> robot.lookup("#actionOutcome").queryAs(Label.class).getText());
    }

    private AlarmLatch.Entry sessionLost() {
        return fx(() -> window.alarms().table().getItems().stream().filter(e -> e.alarm().kind().equals("SESSION_LOST")
                && e.alarm().source().equals("r2")).findFirst().orElse(null));
    }

    private AlarmLatch.Entry latchedSessionLost() {
        AlarmLatch.Entry e = sessionLost();
        return e != null && e.latched() ? e : null;
    }

    private JsonNode subscriptionOf(String variable) throws Exception {
        for (JsonNode s : get("/subscriptions")) {
            if (s.get("variable").asText().equals(variable)) {
                return s;
            }
        }
        return null;
    }

    private static JsonNode get(String path) {
        try {
            return network.get(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A flow of the broker's {@code GET /flows}, or a missing node. */
    private static JsonNode flowOf(JsonNode flows, FlowKey key) {
        for (JsonNode f : flows) {
            if (f.get("router").asText().equals(key.router()) && f.get("flowId").asLong() == key.flowId()) {
                return f;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private TableColumn<FlowRow, ?> column(String title) {
        return window.flows().flows().table().getColumns().stream().filter(c -> c.getText().equals(title)).findFirst()
                .orElseThrow();
    }

    /**
     * The text of a flow's cell in a column of the flow table as drawn, and what {@code written}
     * makes of the line the cell shows; on the FX thread.
     */
    private List<String> cellText(String title, FlowKey key, java.util.function.Function<FlowRow, String> written) {
        TableView<FlowRow> t = window.flows().flows().table();
        int index = -1;
        for (int i = 0; i < t.getItems().size(); i++) {
            if (t.getItems().get(i).key().equals(key)) {
                index = i;
            }
        }
        TableColumn<FlowRow, ?> c = column(title);
        t.scrollToColumn(c);
        t.layout();
        for (Node n : t.lookupAll(".table-cell")) {
            if (n instanceof javafx.scene.control.TableCell<?, ?> cell && cell.getTableColumn() == c
                    && cell.getIndex() == index && cell.getTableRow() != null && cell.getTableRow().getItem() != null) {
                return List.of(cell.getText(), written.apply((FlowRow) cell.getTableRow().getItem()));
            }
        }
        throw new AssertionError("no cell of " + key + " in column " + title);
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
                    return false; // e.g. the broker is down for the moment
                }
            });
        } catch (java.util.concurrent.TimeoutException e) {
            fail("timed out after " + seconds + " s waiting until " + what);
        }
    }
}
