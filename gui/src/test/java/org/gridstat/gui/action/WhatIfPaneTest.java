package org.gridstat.gui.action;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * "What if…" in the admit form (TestFX, headless) with a scripted preview: a prediction is cleared
 * when the form changes, a running preview can be cancelled (it is told to stop, and what it
 * returns all the same is dropped), and a change of the form cancels a running preview too.
 */
@Timeout(30)
class WhatIfPaneTest {
    /** Answers at once, or, when {@code holding}, only once it is cancelled. */
    private static final class Scripted implements AdmissionPreview {
        volatile boolean holding;
        volatile Error failing;
        final AtomicInteger cancelledSeen = new AtomicInteger();

        @Override
        public boolean available() {
            return true;
        }

        @Override
        public Result preview(SubscriptionRequest request, StatedSurge surge) {
            return preview(request, surge, () -> false);
        }

        @Override
        public Result preview(SubscriptionRequest request, StatedSurge surge, BooleanSupplier cancelled) {
            if (failing != null) {
                throw failing;
            }
            if (!holding) {
                return new Result(List.of("admitted", "path r1->r4 at " + request.rateHz() + " Hz"));
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!cancelled.getAsBoolean() && System.nanoTime() < end) {
                LockSupport.parkNanos(1_000_000);
            }
            cancelledSeen.incrementAndGet();
            return new Result(List.of("admitted", "a prediction for a form no longer shown"));
        }
    }

    private final Scripted preview = new Scripted();
    private AdmitDialog form;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        fx(() -> {
            form = new AdmitDialog(null, List.of("a/b"), List.of("r4"), preview);
            form.show(); // its combo boxes' editors are made with their skins
            ((TextField) node("#admitVariable")).setText("a/b");
            ((TextField) node("#admitRouter")).setText("r4");
            ((TextField) node("#admitLink")).setText("cc");
            return null;
        });
    }

    @AfterEach
    void close() {
        fx(() -> {
            form.close();
            return null;
        });
    }

    @Test
    void aPredictionIsClearedWhenTheFormChanges() {
        press("#whatIf");
        waitFor(() -> lines().isVisible() && lines().getText().startsWith("admitted"));
        assertTrue(lines().getText().contains("at 30.0 Hz"), lines().getText());
        fx(() -> {
            ((TextField) node("#admitRate")).setText("20");
            return null;
        });
        assertFalse(fx(() -> lines().isVisible()), "the prediction was for 30 Hz: gone");
        assertEquals("", fx(() -> lines().getText()));
        press("#whatIf");
        waitFor(() -> lines().isVisible() && lines().getText().contains("at 20.0 Hz"));
    }

    @Test
    void aRunningPreviewCanBeCancelledAndWhatItReturnsAllTheSameIsDropped() {
        preview.holding = true;
        press("#whatIf");
        assertTrue(fx(() -> node("#whatIfCancel").isVisible()), "Cancel shown while it runs");
        assertTrue(fx(() -> node("#whatIf").isDisabled()), "one preview at a time");

        press("#whatIfCancel");
        assertEquals(WhatIfPane.CANCELLED, fx(() -> lines().getText()));
        assertFalse(fx(() -> node("#whatIfCancel").isVisible()));
        assertFalse(fx(() -> node("#whatIf").isDisabled()), "another may be asked at once");
        waitFor(() -> form.whatIf().dropped() == 1);
        assertEquals(1, preview.cancelledSeen.get(), "the preview was told to stop");
        assertEquals(WhatIfPane.CANCELLED, fx(() -> lines().getText()), "its late result not shown");
    }

    @Test
    void aChangeOfTheFormCancelsARunningPreview() {
        preview.holding = true;
        press("#whatIf");
        assertTrue(fx(() -> form.whatIf().busy()));
        fx(() -> {
            ((TextField) node("#admitBound")).setText("80");
            return null;
        });
        assertFalse(fx(() -> form.whatIf().busy()));
        assertFalse(fx(() -> node("#whatIfRunning").isVisible()));
        waitFor(() -> form.whatIf().dropped() == 1);
        assertFalse(fx(() -> lines().isVisible()), "nothing predicted for the form as it is");
    }

    @Test
    void aPreviewThatFailsWithAnErrorSaysSoRatherThanSpinForEver() {
        preview.failing = new NoClassDefFoundError("org/gridstat/sim/whatif/State$Variable");
        press("#whatIf");
        waitFor(() -> !form.whatIf().busy() && lines().isVisible());
        assertTrue(fx(() -> lines().getText()).startsWith("the preview failed: java.lang.NoClassDefFoundError"),
                fx(() -> lines().getText()));
        assertFalse(fx(() -> node("#whatIfRunning").isVisible()));
    }

    private TextArea lines() {
        return (TextArea) node("#whatIfLines");
    }

    private Node node(String id) {
        return form.getDialogPane().lookup(id);
    }

    private void press(String id) {
        fx(() -> {
            ((Button) node(id)).fire();
            return null;
        });
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
