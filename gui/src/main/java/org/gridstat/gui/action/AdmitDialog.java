package org.gridstat.gui.action;

import java.util.Collection;
import java.util.List;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The form to admit a subscription: variable (the declared ones offered), the subscriber's router
 * (the topology's) and delivery link, rate, latency bound, disjoint paths, class and correlation
 * group. Every field is checked as it is typed; Admit stays disabled, and the problems are listed,
 * until the request is one the broker can take. Enter admits, Escape cancels. "What if…" asks an
 * {@link AdmissionPreview}, disabled while none is available.
 */
public final class AdmitDialog extends Dialog<SubscriptionRequest> {
    static final ButtonType ADMIT = new ButtonType("Admit…", ButtonBar.ButtonData.OK_DONE);
    private final ComboBox<String> variable = new ComboBox<>();
    private final ComboBox<String> router = new ComboBox<>();
    private final TextField link = new TextField();
    private final TextField rate = new TextField("30");
    private final TextField bound = new TextField("50");
    private final TextField paths = new TextField("1");
    private final ComboBox<String> serviceClass = new ComboBox<>();
    private final TextField group = new TextField();
    private final Label problems = new Label();
    private final Collection<String> routers;
    private SubscriptionRequest.Checked checked;

    public AdmitDialog(Window owner, List<String> variables, List<String> routers, AdmissionPreview preview) {
        this.routers = List.copyOf(routers);
        initOwner(owner);
        setTitle("Admit a subscription");
        setHeaderText("Admit a subscription");
        getDialogPane().setId("admitDialog");
        getDialogPane().getStyleClass().add("console-dialog");
        variable.setEditable(true);
        variable.getItems().setAll(variables);
        variable.setPromptText("utilityA/sub1/pmu1/freq");
        router.setEditable(true);
        router.getItems().setAll(routers);
        router.setPromptText("r4");
        link.setPromptText("cc");
        serviceClass.getItems().setAll(SubscriptionRequest.CLASSES);
        serviceClass.setValue("HRT");
        group.setPromptText("(none)");
        variable.getEditor().setId("admitVariable");
        router.getEditor().setId("admitRouter");
        link.setId("admitLink");
        rate.setId("admitRate");
        bound.setId("admitBound");
        paths.setId("admitPaths");
        serviceClass.setId("admitClass");
        group.setId("admitGroup");
        problems.setId("admitProblems");
        problems.getStyleClass().add("problems");
        problems.setWrapText(true);
        problems.setMaxWidth(560);

        GridPane form = new GridPane();
        form.setHgap(12);
        form.setVgap(10);
        form.setPadding(new Insets(12));
        row(form, 0, "_Variable", variable);
        row(form, 1, "_Router (subscriber's)", router);
        row(form, 2, "_Link (delivery)", link);
        row(form, 3, "Ra_te (Hz)", rate);
        row(form, 4, "Latency _bound (ms)", bound);
        row(form, 5, "_Paths (disjoint, 1-4)", paths);
        row(form, 6, "_Class", serviceClass);
        row(form, 7, "Correlation _group", group);

        Button whatIf = new Button("What if…");
        whatIf.setId("whatIf");
        TextArea prediction = new TextArea();
        prediction.setEditable(false);
        prediction.setPrefRowCount(4);
        prediction.setVisible(false);
        prediction.setManaged(false);
        StackPane whatIfHolder = new StackPane(whatIf); // a disabled button shows no tooltip: its holder does
        whatIfHolder.setMaxWidth(Region.USE_PREF_SIZE);
        if (preview.available()) {
            whatIf.setOnAction(e -> {
                SubscriptionRequest r = checked == null ? null : checked.request();
                if (r == null) {
                    return;
                }
                whatIf.setDisable(true);
                prediction.setText("running the request through the simulator…");
                prediction.setVisible(true);
                prediction.setManaged(true);
                Thread t = new Thread(() -> {
                    String text;
                    try {
                        text = String.join("\n", preview.preview(r).lines());
                    } catch (RuntimeException ex) {
                        text = "the preview failed: " + ex.getMessage();
                    }
                    String shown = text;
                    Platform.runLater(() -> {
                        prediction.setText(shown);
                        whatIf.setDisable(false);
                    });
                }, "gridstat-console-preview");
                t.setDaemon(true);
                t.start();
            });
        } else {
            whatIf.setDisable(true);
            Tooltip.install(whatIfHolder, new Tooltip("preview unavailable"));
        }
        VBox content = new VBox(8, form, whatIfHolder, prediction, problems);
        getDialogPane().setContent(content);
        getDialogPane().getButtonTypes().setAll(ADMIT, ButtonType.CANCEL);
        Node admit = getDialogPane().lookupButton(ADMIT);
        admit.setId("admitConfirm");
        for (javafx.beans.Observable o : List.of(variable.getEditor().textProperty(), router.getEditor().textProperty(),
                link.textProperty(), rate.textProperty(), bound.textProperty(), paths.textProperty(),
                serviceClass.valueProperty(), group.textProperty())) {
            o.addListener(x -> check(admit));
        }
        check(admit);
        setResultConverter(b -> b == ADMIT && checked.ok() ? checked.request() : null);
        setOnShown(e -> variable.getEditor().requestFocus());
    }

    private static void row(GridPane form, int row, String label, javafx.scene.control.Control field) {
        Label l = new Label(label);
        l.setMnemonicParsing(true);
        l.setLabelFor(field);
        field.setPrefWidth(380);
        form.addRow(row, l, field);
    }

    private void check(Node admit) {
        checked = SubscriptionRequest.check(variable.getEditor().getText(), router.getEditor().getText(), link.getText(),
                rate.getText(), bound.getText(), paths.getText(), serviceClass.getValue(), group.getText(), routers);
        admit.setDisable(!checked.ok());
        problems.setText(checked.ok() ? "" : "• " + String.join("\n• ", checked.problems()));
    }
}
