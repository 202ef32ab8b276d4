package org.gridstat.gui.action;

import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.stage.Window;

/**
 * Asks the operator to confirm an action, saying what will change. Escape cancels. Enter confirms
 * an action that can be undone by another (an admission, a change); for a destructive one (a
 * tear-down) Cancel is the default button and has the keyboard, so Enter cancels and only a
 * deliberate click (or Tab to the button, then Space) confirms.
 */
final class Confirmation {
    static final ButtonType CONFIRM = new ButtonType("Confirm", ButtonBar.ButtonData.OK_DONE);

    private Confirmation() {
    }

    static boolean ask(Window owner, String title, String whatChanges) {
        return ask(owner, title, whatChanges, false);
    }

    /** @param destructive Cancel is the default: Enter does not confirm */
    static boolean ask(Window owner, String title, String whatChanges, boolean destructive) {
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, "", CONFIRM, ButtonType.CANCEL);
        a.initOwner(owner);
        a.setTitle(title);
        a.setHeaderText(title);
        Label text = new Label(whatChanges);
        text.setId("confirmationText");
        text.setWrapText(true);
        // wrapped at 640 px: a label's preferred width is its text on one line, which made the dialog
        // as wide as the text and, centred on the window, partly off a 1280-pixel screen
        text.setPrefWidth(640);
        text.setMaxWidth(640);
        a.getDialogPane().setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        a.getDialogPane().setContent(text);
        a.getDialogPane().setId("confirmation");
        a.getDialogPane().getStyleClass().add("console-dialog");
        Button confirm = (Button) a.getDialogPane().lookupButton(CONFIRM);
        Button cancel = (Button) a.getDialogPane().lookupButton(ButtonType.CANCEL);
        confirm.setId("confirmButton");
        cancel.setId("cancelButton");
        if (destructive) {
            confirm.setDefaultButton(false);
            cancel.setDefaultButton(true);
            a.setOnShown(e -> cancel.requestFocus());
        }
        return a.showAndWait().filter(CONFIRM::equals).isPresent();
    }
}
