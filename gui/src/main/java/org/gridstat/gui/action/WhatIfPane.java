package org.gridstat.gui.action;

import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The admit form's "What if…": a button, a spinner and a Cancel button while the simulator runs,
 * and the preview's lines. The preview takes seconds, so it runs on a thread of its own; the button
 * stays disabled until it is done (one preview at a time) and while the form holds no request to
 * preview. A preview is for the form as it was when asked: a change of the form cancels a running
 * preview and clears a prediction shown, and closing the form cancels a running one. A cancelled
 * preview is told to stop ({@link AdmissionPreview#preview(SubscriptionRequest, StatedSurge,
 * java.util.function.BooleanSupplier)}) and its result, if it still comes, is dropped.
 */
final class WhatIfPane {
    /** What the lines say after the operator cancelled a preview. */
    static final String CANCELLED = "preview cancelled: nothing was predicted";
    private final Button button = new Button("What if…");
    private final Button cancel = new Button("Ca_ncel preview");
    private final ProgressIndicator running = new ProgressIndicator();
    private final Label runningText = new Label("running the request through the simulator…");
    private final TextArea lines = new TextArea();
    private final VBox root;
    private final boolean available;
    private boolean ready;
    /** The preview running now, or {@code null}. UI thread. */
    private Run current;
    /** Results of cancelled previews that came all the same, and were not shown. */
    private int dropped;

    /** One preview asked for: cancelled is read by the preview's thread. */
    private static final class Run {
        volatile boolean cancelled;
        Thread thread;
    }

    /**
     * @param asked the form's request and surge when pressed, or {@code null} if the form holds none
     */
    WhatIfPane(AdmissionPreview preview, Supplier<Asked> asked) {
        this.available = preview.available();
        button.setId("whatIf");
        button.setMnemonicParsing(true);
        button.setText("_What if…");
        cancel.setId("whatIfCancel");
        cancel.setMnemonicParsing(true);
        cancel.setOnAction(e -> cancel(true));
        running.setId("whatIfRunning");
        running.setPrefSize(22, 22);
        lines.setId("whatIfLines");
        lines.setEditable(false);
        lines.setWrapText(true);
        lines.setPrefRowCount(8);
        lines.setPrefColumnCount(60);
        show(lines, false);
        HBox progress = new HBox(8, running, runningText, cancel);
        progress.setAlignment(Pos.CENTER_LEFT);
        showRunning(false);
        StackPane holder = new StackPane(button); // a disabled button shows no tooltip: its holder does
        holder.setMaxWidth(Region.USE_PREF_SIZE);
        HBox bar = new HBox(12, holder, progress);
        bar.setAlignment(Pos.CENTER_LEFT);
        root = new VBox(8, bar, lines);
        if (available) {
            button.setOnAction(e -> run(preview, asked.get()));
            Tooltip.install(holder, new Tooltip("run this request through the simulator against the broker's current"
                    + " topology and reservations, under the surge stated"));
        } else {
            Tooltip.install(holder, new Tooltip("preview unavailable"));
        }
        refresh();
    }

    /** What a preview is asked for: the request and the stated surge ({@code null}: none). */
    record Asked(SubscriptionRequest request, StatedSurge surge) {
    }

    VBox node() {
        return root;
    }

    /** Whether the form now holds a request to preview. */
    void ready(boolean r) {
        ready = r;
        refresh();
    }

    /** The form changed: a running preview is cancelled and a prediction shown cleared, both being for the old form. */
    void formChanged() {
        cancel(false);
        if (lines.isVisible()) {
            lines.clear();
            show(lines, false);
            resize();
        }
    }

    /** The form was closed: a running preview is cancelled. */
    void formClosed() {
        cancel(false);
    }

    /** Whether a preview runs now. */
    boolean busy() {
        return current != null;
    }

    /** Results of cancelled previews that came all the same and were dropped (for tests). */
    int dropped() {
        return dropped;
    }

    private void run(AdmissionPreview preview, Asked a) {
        if (a == null || current != null) {
            return;
        }
        Run r = new Run();
        current = r;
        lines.clear();
        show(lines, false);
        showRunning(true);
        refresh();
        r.thread = new Thread(() -> {
            String text;
            try {
                text = String.join("\n", preview.preview(a.request(), a.surge(), () -> r.cancelled).lines());
            } catch (RuntimeException | Error ex) { // a preview says its failures; this is the last guard, so
                // that a form never spins for ever (a class missing from a broken installation is an Error)
                text = "the preview failed: " + ex;
            }
            String shown = text;
            Platform.runLater(() -> finished(r, shown));
        }, "gridstat-console-preview");
        r.thread.setDaemon(true);
        r.thread.start();
    }

    private void finished(Run r, String text) {
        if (r != current) {
            dropped++;
            return; // cancelled: what it found is not for the form as it is
        }
        current = null;
        lines.setText(text);
        show(lines, true);
        showRunning(false);
        refresh();
        resize();
    }

    /** Cancels the running preview, if any; {@code say}: the lines say it was cancelled. */
    private void cancel(boolean say) {
        Run r = current;
        if (r == null) {
            return;
        }
        current = null;
        r.cancelled = true;
        r.thread.interrupt(); // a read of the broker's state waiting for its answer gives up at once
        showRunning(false);
        if (say) {
            lines.setText(CANCELLED);
            show(lines, true);
        }
        refresh();
        resize();
    }

    private void resize() {
        if (root.getScene() != null && root.getScene().getWindow() != null) {
            root.getScene().getWindow().sizeToScene();
        }
    }

    private void refresh() {
        button.setDisable(!available || current != null || !ready);
    }

    private void showRunning(boolean shown) {
        show(running, shown);
        show(runningText, shown);
        show(cancel, shown);
    }

    private static void show(javafx.scene.Node n, boolean shown) {
        n.setVisible(shown);
        n.setManaged(shown);
    }
}
