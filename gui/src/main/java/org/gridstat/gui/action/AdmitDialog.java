package org.gridstat.gui.action;

import java.util.Collection;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The form to admit a subscription: variable (the declared ones offered), the subscriber's router
 * (the topology's) and delivery link, rate, latency bound, disjoint paths, class and correlation
 * group. Every field is checked as it is typed; Admit stays disabled, and the problems are listed,
 * until the request is one the broker can take. Enter admits, Escape cancels. "What if…" asks an
 * {@link AdmissionPreview} ({@link WhatIfPane}) under the optional surge of the last two fields,
 * and shows its prediction in the form before the operator admits; disabled while none is available.
 * A change of any field clears the prediction (or cancels the preview running), which was for the
 * form as it was.
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
    private final ComboBox<String> surgeVariable = new ComboBox<>();
    private final TextField surgeRate = new TextField();
    private final Label problems = new Label();
    private final WhatIfPane whatIf;
    private StatedSurge surge;
    private boolean surgeOk = true;
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
        surgeVariable.setEditable(true);
        surgeVariable.getItems().setAll(variables);
        surgeVariable.setPromptText("(none: every publisher at its declared rate)");
        surgeRate.setPromptText("e.g. 120");
        surgeVariable.getEditor().setId("admitSurgeVariable");
        surgeRate.setId("admitSurgeRate");
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

        row(form, 8, "_Surge: variable (what if)", surgeVariable);
        row(form, 9, "Surge rate (_Hz)", surgeRate);
        whatIf = new WhatIfPane(preview, () -> checked != null && checked.ok() && surgeOk
                ? new WhatIfPane.Asked(checked.request(), surge) : null);
        VBox content = new VBox(8, form, whatIf.node(), problems);
        getDialogPane().setContent(content);
        getDialogPane().getButtonTypes().setAll(ADMIT, ButtonType.CANCEL);
        Node admit = getDialogPane().lookupButton(ADMIT);
        admit.setId("admitConfirm");
        for (javafx.beans.Observable o : List.of(variable.getEditor().textProperty(), router.getEditor().textProperty(),
                link.textProperty(), rate.textProperty(), bound.textProperty(), paths.textProperty(),
                serviceClass.valueProperty(), group.textProperty(), surgeVariable.getEditor().textProperty(),
                surgeRate.textProperty())) {
            o.addListener(x -> {
                whatIf.formChanged(); // a prediction shown, or running, is for the form as it was
                check(admit);
            });
        }
        check(admit);
        setOnHidden(e -> whatIf.formClosed());
        setResultConverter(b -> b == ADMIT && checked.ok() ? checked.request() : null);
        setOnShown(e -> variable.getEditor().requestFocus());
    }

    WhatIfPane whatIf() {
        return whatIf;
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
        List<String> surgeProblems = new java.util.ArrayList<>();
        surge = StatedSurge.check(surgeVariable.getEditor().getText(), surgeRate.getText(), surgeProblems);
        surgeOk = surgeProblems.isEmpty();
        // the surge is the preview's only: a bad one holds back "What if…", never the admission
        admit.setDisable(!checked.ok());
        whatIf.ready(checked.ok() && surgeOk);
        List<String> all = new java.util.ArrayList<>(checked.problems());
        all.addAll(surgeProblems);
        problems.setText(all.isEmpty() ? "" : "• " + String.join("\n• ", all));
    }
}
