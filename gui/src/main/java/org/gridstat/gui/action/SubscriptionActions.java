package org.gridstat.gui.action;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.scene.control.Label;
import javafx.stage.Window;
import org.gridstat.gui.model.Hop;
import org.gridstat.gui.model.Subscription;

/**
 * The operator's actions from the flows view: each opens its form, asks for confirmation saying
 * what will change, sends the request off the UI thread ({@link BrokerActions}) and shows the
 * outcome, the broker's reason included, in the outcome line: done, not done, or unknown (no
 * answer came; the operator is told to look at the flow table before retrying). One action at a
 * time: {@link #running()} is true from sending until its outcome is shown, and the flows view
 * disables its action buttons meanwhile.
 */
public final class SubscriptionActions {
    private final BrokerActions broker;
    private final AdmissionPreview preview;
    private final Label outcome = new Label("no action yet");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);

    public SubscriptionActions(BrokerActions broker, AdmissionPreview preview) {
        this.broker = broker;
        this.preview = preview;
        outcome.setId("actionOutcome");
        outcome.setWrapText(true);
        outcome.getStyleClass().add("outcome");
    }

    /** True while an action is sent and its outcome not yet shown (UI thread). */
    public ReadOnlyBooleanProperty running() {
        return running.getReadOnlyProperty();
    }

    /** The outcome line: what the last action did, or why not. */
    public Label outcome() {
        return outcome;
    }

    public void admit(Window owner, List<String> variables, List<String> routers) {
        new AdmitDialog(owner, variables, routers, preview).showAndWait().ifPresent(r -> {
            if (Confirmation.ask(owner, "Admit this subscription?", r.describe())) {
                run("admitting " + r.variable() + " at " + r.router() + "/" + r.link() + "…", () -> broker.admit(r));
            }
        });
    }

    public void modify(Window owner, Subscription s, boolean groupOnly) {
        if (s == null) {
            show(false, "select a subscription first (the upper table)");
            return;
        }
        new ModifyDialog(owner, s, groupOnly).showAndWait().ifPresent(c -> {
            if (Confirmation.ask(owner, "Change subscription " + s.id() + "?", c.describe(s))) {
                run("changing subscription " + s.id() + "…", () -> broker.modify(s.id(), c));
            }
        });
    }

    public void tearDown(Window owner, Subscription s) {
        if (s == null) {
            show(false, "select a subscription first (the upper table)");
            return;
        }
        String routers = String.join(", ", s.paths().stream().flatMap(List::stream).map(Hop::router).distinct().toList());
        String what = "Tear down subscription " + s.id() + ": " + s.variable() + " delivered at " + s.subscriberRouter()
                + "/" + s.subscriberLink() + " (" + s.serviceClass() + ", " + Figures.hz(s.rateHz()) + "). Its subscriber "
                + "stops receiving it; its reservations are freed and the flows only it needed are removed from "
                + (routers.isEmpty() ? "its routers" : routers) + ".";
        if (Confirmation.ask(owner, "Tear down subscription " + s.id() + "?", what, true)) {
            run("tearing down subscription " + s.id() + "…", () -> broker.tearDown(s.id()));
        }
    }

    /** Sends an action and shows its outcome; nothing if one is running already. UI thread. */
    void run(String doing, Supplier<CompletableFuture<ActionOutcome>> action) {
        if (running.get()) {
            return;
        }
        running.set(true);
        outcome.setText(doing);
        outcome.getStyleClass().setAll("label", "outcome", "outcome-running");
        CompletableFuture<ActionOutcome> sent;
        try {
            sent = action.get();
        } catch (RuntimeException e) {
            running.set(false);
            show("outcome-bad", "✖ not sent: " + e.getMessage());
            return;
        }
        sent.whenComplete((o, e) -> Platform.runLater(() -> {
            running.set(false);
            if (e != null) {
                show("outcome-unknown", "? outcome unknown — check the flow table: " + e.getMessage());
            } else {
                switch (o.verdict()) {
                    case DONE -> show("outcome-good", "✔ done: " + o.message());
                    case NOT_DONE -> show("outcome-bad", "✖ " + o.message());
                    case UNKNOWN -> show("outcome-unknown", "? " + o.message());
                }
            }
        }));
    }

    private void show(boolean good, String text) {
        show(good ? "outcome-good" : "outcome-bad", text);
    }

    private void show(String style, String text) {
        outcome.setText(text);
        outcome.getStyleClass().setAll("label", "outcome", style);
    }
}
