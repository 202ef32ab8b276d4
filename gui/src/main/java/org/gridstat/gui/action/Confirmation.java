package org.gridstat.gui.action;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.stage.Window;

/** Asks the operator to confirm an action, saying what will change; Enter confirms, Escape cancels. */
final class Confirmation {
    static final ButtonType CONFIRM = new ButtonType("Confirm", ButtonBar.ButtonData.OK_DONE);

    private Confirmation() {
    }

    static boolean ask(Window owner, String title, String whatChanges) {
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, "", CONFIRM, ButtonType.CANCEL);
        a.initOwner(owner);
        a.setTitle(title);
        a.setHeaderText(title);
        Label text = new Label(whatChanges);
        text.setId("confirmationText");
        text.setWrapText(true);
        text.setMaxWidth(640);
        a.getDialogPane().setContent(text);
        a.getDialogPane().setId("confirmation");
        a.getDialogPane().getStyleClass().add("console-dialog");
        return a.showAndWait().filter(CONFIRM::equals).isPresent();
    }
}
