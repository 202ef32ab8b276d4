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
 * The admit form's "What if…": a button, a spinner while the simulator runs, and the preview's
 * lines. The preview takes seconds, so it runs on a thread of its own; the button stays disabled
 * until it is done (one preview at a time) and while the form holds no request to preview.
 */
final class WhatIfPane {
    private final Button button = new Button("What if…");
    private final ProgressIndicator running = new ProgressIndicator();
    private final Label runningText = new Label("running the request through the simulator…");
    private final TextArea lines = new TextArea();
    private final VBox root;
    private final boolean available;
    private boolean busy;
    private boolean ready;

    /**
     * @param asked the form's request and surge when pressed, or {@code null} if the form holds none
     */
    WhatIfPane(AdmissionPreview preview, Supplier<Asked> asked) {
        this.available = preview.available();
        button.setId("whatIf");
        button.setMnemonicParsing(true);
        button.setText("_What if…");
        running.setId("whatIfRunning");
        running.setPrefSize(22, 22);
        lines.setId("whatIfLines");
        lines.setEditable(false);
        lines.setWrapText(true);
        lines.setPrefRowCount(8);
        lines.setPrefColumnCount(60);
        show(lines, false);
        HBox progress = new HBox(8, running, runningText);
        progress.setAlignment(Pos.CENTER_LEFT);
        show(running, false);
        show(runningText, false);
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

    private void run(AdmissionPreview preview, Asked a) {
        if (a == null || busy) {
            return;
        }
        busy = true;
        refresh();
        show(running, true);
        show(runningText, true);
        Thread t = new Thread(() -> {
            String text;
            try {
                text = String.join("\n", preview.preview(a.request(), a.surge()).lines());
            } catch (RuntimeException ex) { // a preview says its failures; this is the last guard
                text = "the preview failed: " + ex.getMessage();
            }
            String shown = text;
            Platform.runLater(() -> {
                lines.setText(shown);
                show(lines, true);
                show(running, false);
                show(runningText, false);
                busy = false;
                refresh();
                if (root.getScene() != null && root.getScene().getWindow() != null) {
                    root.getScene().getWindow().sizeToScene();
                }
            });
        }, "gridstat-console-preview");
        t.setDaemon(true);
        t.start();
    }

    private void refresh() {
        button.setDisable(!available || busy || !ready);
    }

    private static void show(javafx.scene.Node n, boolean shown) {
        n.setVisible(shown);
        n.setManaged(shown);
    }
}
