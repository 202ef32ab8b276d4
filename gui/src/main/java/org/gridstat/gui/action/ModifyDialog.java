package org.gridstat.gui.action;

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
import org.gridstat.gui.model.Subscription;

/**
 * The form to change an admitted subscription: its rate, latency bound, class and correlation
 * group, filled with the current values. Only what the operator changes is sent; the paths'
 * number is not offered here (the API takes it, and `gridstat admin modify --paths` sends it).
 */
public final class ModifyDialog extends Dialog<QosChange> {
    static final ButtonType APPLY = new ButtonType("Change…", ButtonBar.ButtonData.OK_DONE);
    private QosChange.Checked checked;

    public ModifyDialog(Window owner, Subscription s, boolean groupOnly) {
        initOwner(owner);
        String title = (groupOnly ? "Change the correlation group of subscription " : "Modify subscription ") + s.id();
        setTitle(title);
        setHeaderText(title + ": " + s.variable() + " at " + s.subscriberRouter() + "/" + s.subscriberLink());
        getDialogPane().setId("modifyDialog");
        getDialogPane().getStyleClass().add("console-dialog");
        TextField rate = new TextField(Figures.plain(s.rateHz()));
        TextField bound = new TextField(Figures.plain(s.latencyBoundMs()));
        ComboBox<String> serviceClass = new ComboBox<>();
        serviceClass.getItems().setAll(SubscriptionRequest.CLASSES);
        serviceClass.setValue(s.serviceClass());
        TextField group = new TextField(s.correlationGroup());
        group.setPromptText("(none)");
        rate.setId("modifyRate");
        bound.setId("modifyBound");
        serviceClass.setId("modifyClass");
        group.setId("modifyGroup");
        Label problems = new Label();
        problems.setId("modifyProblems");
        problems.getStyleClass().add("problems");
        problems.setWrapText(true);
        GridPane form = new GridPane();
        form.setHgap(12);
        form.setVgap(10);
        form.setPadding(new Insets(12));
        int row = 0;
        if (!groupOnly) {
            form.addRow(row++, label("Ra_te (Hz)", rate), rate);
            form.addRow(row++, label("Latency _bound (ms)", bound), bound);
            form.addRow(row++, label("_Class", serviceClass), serviceClass);
        }
        form.addRow(row, label("Correlation _group (empty: none)", group), group);
        Label note = new Label("A flow's correlation group is its subscription's: the change applies to every flow the "
                + "subscription's paths install.");
        note.setWrapText(true);
        note.setMaxWidth(560);
        note.getStyleClass().add("note");
        getDialogPane().setContent(new VBox(8, form, note, problems));
        getDialogPane().getButtonTypes().setAll(APPLY, ButtonType.CANCEL);
        Node apply = getDialogPane().lookupButton(APPLY);
        apply.setId("modifyConfirm");
        Runnable check = () -> {
            checked = QosChange.check(s, rate.getText(), bound.getText(), serviceClass.getValue(), group.getText());
            apply.setDisable(!checked.ok());
            problems.setText(checked.ok() ? "" : "• " + String.join("\n• ", checked.problems()));
        };
        for (javafx.beans.Observable o : List.of(rate.textProperty(), bound.textProperty(), serviceClass.valueProperty(),
                group.textProperty())) {
            o.addListener(x -> check.run());
        }
        check.run();
        setResultConverter(b -> b == APPLY && checked.ok() ? checked.change() : null);
        setOnShown(e -> (groupOnly ? group : rate).requestFocus());
    }

    private static Label label(String text, javafx.scene.control.Control field) {
        Label l = new Label(text);
        l.setMnemonicParsing(true);
        l.setLabelFor(field);
        field.setPrefWidth(300);
        return l;
    }
}
