package org.gridstat.gui.view;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import javafx.scene.control.Control;
import javafx.scene.control.Label;

/**
 * The line above a view that says why what it shows may no longer be the broker's (the console is
 * not live, a resource could not be refreshed, figures have aged), and as of when; hidden while
 * what it shows is current. The view's table is marked too (style class {@code stale}: dimmed).
 */
final class StaleBanner {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private final Label label = new Label();
    private final Control marked;

    /** @param marked the view's table, dimmed while the banner shows, or {@code null} */
    StaleBanner(String id, Control marked) {
        this.marked = marked;
        label.setId(id);
        label.getStyleClass().add("stale-banner");
        label.setWrapText(true);
        label.setMaxWidth(Double.MAX_VALUE);
        show(null, 0);
    }

    Label node() {
        return label;
    }

    /**
     * Shows why what the view shows may no longer be current, as of {@code asOfMillis} (0: not
     * said), or hides the banner ({@code why} null).
     */
    void show(String why, long asOfMillis) {
        boolean shown = why != null;
        if (shown) {
            label.setText("◐ " + why + (asOfMillis > 0 ? " — shown as of " + CLOCK.format(Instant.ofEpochMilli(asOfMillis))
                    : ""));
        }
        label.setVisible(shown);
        label.setManaged(shown);
        if (marked != null) {
            if (shown && !marked.getStyleClass().contains("stale")) {
                marked.getStyleClass().add("stale");
            } else if (!shown) {
                marked.getStyleClass().remove("stale");
            }
        }
    }

    boolean shown() {
        return label.isVisible();
    }

    String text() {
        return shown() ? label.getText() : null;
    }
}
