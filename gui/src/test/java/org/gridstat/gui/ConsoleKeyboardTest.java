package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.input.KeyCode;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.Alarm;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.view.ConsoleWindow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The views a key away give the keyboard to what the operator works with in them (TestFX,
 * headless): Ctrl+2 the flow table, Ctrl+3 the list of charts, Ctrl+5 the alarms, so that Ctrl+5,
 * Down and Enter acknowledge a latched alarm without the mouse or a run of Tabs.
 */
@Timeout(30)
class ConsoleKeyboardTest {
    private final FxRobot robot = new FxRobot();
    private final ConsoleModel model = new ConsoleModel();
    private BrokerActions actions;
    private ConsoleWindow window;

    @AfterEach
    void close() throws Exception {
        actions.close();
        FxToolkit.cleanupStages();
    }

    @Test
    void eachViewAKeyAwayTakesTheKeyboardWhereItsWorkIs() throws Exception {
        open();
        model.received(Resource.ALARMS, List.of(new Alarm("r2", "SESSION_LOST", "WARNING", "r2 lost", "r2 lost", 1,
                Instant.ofEpochSecond(1_000), Instant.ofEpochSecond(1_000), true)), System.currentTimeMillis());
        fx(() -> {
            window.pulse().pulseNow();
            return null;
        });

        assertEquals("flowTable", focusAfter(KeyCode.DIGIT2));
        assertEquals("chartChoices", focusAfter(KeyCode.DIGIT3));
        assertEquals("devicesTable", focusAfter(KeyCode.DIGIT4));
        assertEquals("alarmsTable", focusAfter(KeyCode.DIGIT5));
        assertEquals(1L, (long) fx(() -> window.alarms().table().getItems().stream().filter(e -> e.latched()).count()));
        robot.press(KeyCode.DOWN).release(KeyCode.DOWN);
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(0L, (long) fx(() -> window.alarms().table().getItems().stream().filter(e -> e.latched()).count()),
                "acknowledged from the keyboard");
    }

    @Test
    void enterStillCancelsATearDownAskedFromTheFlowsView() throws Exception {
        open();
        model.received(Resource.SUBSCRIPTIONS, List.of(new org.gridstat.gui.model.Subscription(3, "a/b", "r4", "cc", 10, 50,
                1, "HRT", "", List.of(), "installed", List.of())), System.currentTimeMillis());
        fx(() -> {
            window.pulse().pulseNow();
            return null;
        });
        assertEquals("flowTable", focusAfter(KeyCode.DIGIT2));
        fx(() -> {
            window.flows().subscriptions().table().getSelectionModel().select(0);
            return null;
        });
        robot.clickOn("#tearDownButton");
        long end = System.nanoTime() + 10_000_000_000L;
        while (robot.lookup("#confirmation").tryQuery().isEmpty()) {
            assertTrue(System.nanoTime() < end, "a confirmation");
            Thread.sleep(10);
        }
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#confirmation").tryQuery().isEmpty(), "Enter closed the confirmation");
        assertEquals("no action yet", fx(() -> window.flows().node().lookup("#actionOutcome") instanceof javafx.scene.control.Label l
                ? l.getText() : "?"), "Enter cancelled the tear-down");
    }

    private void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        actions = new BrokerActions(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:9")),
                Duration.ofSeconds(1), Duration.ofSeconds(1))); // never called here
        FxToolkit.setupStage(s -> {
            window = new ConsoleWindow(model, actions, AdmissionPreview.UNAVAILABLE, "(fed by the test)");
            s.setScene(window.scene());
            s.show();
        });
        model.connection(new ConnectionState(ConnectionState.Kind.LIVE, System.currentTimeMillis(), "test", ""));
    }

    private String focusAfter(KeyCode digit) throws Exception {
        robot.press(KeyCode.CONTROL, digit).release(digit, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> window.scene().getFocusOwner() == null ? "nothing" : String.valueOf(window.scene().getFocusOwner().getId()));
    }

    private static <T> T fx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
