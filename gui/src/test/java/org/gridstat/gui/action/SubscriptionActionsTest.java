package org.gridstat.gui.action;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.Node;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.view.FlowsView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * One action at a time (TestFX, headless): while an action's answer is awaited the flows view's
 * action buttons are disabled and another action is not sent; an outcome that is unknown is said
 * so, not "not done". Enter confirms an admission or a change, but cancels a tear-down.
 */
@Timeout(30)
class SubscriptionActionsTest {
    private final org.testfx.api.FxRobot robot = new org.testfx.api.FxRobot();
    private BrokerActions broker;
    private SubscriptionActions actions;
    private FlowsView view;

    @BeforeEach
    void start() throws Exception {
        FxToolkit.registerPrimaryStage();
        // never asked: the actions below are given their futures
        broker = new BrokerActions(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:9")),
                Duration.ofMillis(100), Duration.ofMillis(100)));
        fx(() -> {
            actions = new SubscriptionActions(broker, AdmissionPreview.UNAVAILABLE);
            view = new FlowsView(actions, row -> { });
            return null;
        });
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void whileAnActionRunsTheButtonsWaitAndAnUnknownOutcomeIsSaidSo() {
        CompletableFuture<ActionOutcome> answer = new CompletableFuture<>();
        AtomicInteger sent = new AtomicInteger();
        fx(() -> {
            actions.run("tearing down subscription 3…", () -> {
                sent.incrementAndGet();
                return answer;
            });
            actions.run("admitting…", () -> {
                sent.incrementAndGet();
                return new CompletableFuture<>();
            });
            return null;
        });
        assertEquals(1, sent.get(), "a second action is not sent while the first runs");
        assertTrue(fx(() -> actions.running().get()));
        assertTrue(fx(() -> button("#admitButton").isDisabled()), "Admit waits for the running action");
        assertTrue(fx(() -> button("#tearDownButton").isDisabled()));
        assertEquals("tearing down subscription 3…", fx(() -> actions.outcome().getText()));

        answer.complete(new ActionOutcome(ActionOutcome.Verdict.UNKNOWN, 0,
                "outcome unknown — check the flow table (sent again, the same action is made at most once): no answer"));
        waitFor(() -> !actions.running().get());
        assertEquals("? outcome unknown — check the flow table (sent again, the same action is made at most once): no answer",
                fx(() -> actions.outcome().getText()));
        assertTrue(fx(() -> actions.outcome().getStyleClass().contains("outcome-unknown")));
        assertFalse(fx(() -> button("#admitButton").isDisabled()), "Admit is back");
    }

    @Test
    void enterConfirmsAChangeButCancelsADestructiveAction() {
        assertTrue(answerWithEnter(false), "Enter confirms an admission or a change");
        assertFalse(answerWithEnter(true), "Enter cancels a tear-down: Cancel is its default");
        assertTrue(answerWithClick(true), "a click on Confirm confirms it");
    }

    @Test
    void aLongConfirmationWrapsRatherThanWideningItsDialogOffTheScreen() {
        String what = "Tear down subscription 3: utilityA/sub1/pmu1/freq delivered at r4/cc (HRT, 25 Hz). Its subscriber "
                + "stops receiving it; its reservations are freed and the flows only it needed are removed from r1, r2, r3, r4.";
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        javafx.application.Platform.runLater(() -> answer.complete(Confirmation.ask(null, "Tear down subscription 3?", what,
                true)));
        waitFor(() -> robot.lookup("#confirmation").tryQuery().map(Node::isVisible).orElse(false));
        WaitForAsyncUtils.waitForFxEvents();
        double width = fx(() -> robot.lookup("#confirmation").query().getScene().getWindow().getWidth());
        assertTrue(width < 760, "wrapped at 640 px, not one line of " + what.length() + " characters: " + width);
        robot.press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE);
        try {
            assertFalse(answer.get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean answerWithEnter(boolean destructive) {
        return answer(destructive, () -> robot.press(javafx.scene.input.KeyCode.ENTER).release(javafx.scene.input.KeyCode.ENTER));
    }

    private boolean answerWithClick(boolean destructive) {
        return answer(destructive, () -> robot.clickOn("#confirmButton"));
    }

    private boolean answer(boolean destructive, Runnable operator) {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        javafx.application.Platform.runLater(() -> answer.complete(Confirmation.ask(null, "Tear down subscription 3?",
                "Tear down subscription 3: its reservations are freed.", destructive)));
        waitFor(() -> robot.lookup("#confirmation").tryQuery().map(Node::isVisible).orElse(false));
        WaitForAsyncUtils.waitForFxEvents();
        operator.run();
        try {
            return answer.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    private Node button(String id) {
        return view.node().lookup(id);
    }

    private static void waitFor(Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(condition));
        } catch (java.util.concurrent.TimeoutException e) {
            fail("timed out");
        }
    }

    private static <T> T fx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
