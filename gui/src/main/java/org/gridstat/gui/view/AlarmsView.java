package org.gridstat.gui.view;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ConsoleSnapshot;

/**
 * The alarms, latched ones first: severity in colour and words, whether latched, source, kind,
 * message, count, first and last seen (UTC). Acknowledge (the button, or Enter on the selected
 * alarms) unlatches them in this console; a new occurrence latches again.
 */
public final class AlarmsView implements PulseView {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private final AlarmLatch latch;
    private final ObservableList<AlarmLatch.Entry> rows = FXCollections.observableArrayList();
    private final TableView<AlarmLatch.Entry> table = new TableView<>(rows);
    private final Button acknowledge = new Button("Ac_knowledge selected");
    private final Button acknowledgeAll = new Button("Acknowledge a_ll");
    private final Label summary = new Label();
    private final BorderPane root = new BorderPane();
    private final StaleBanner banner = new StaleBanner("alarmsStale", table);

    public AlarmsView(AlarmLatch latch) {
        this.latch = latch;
        table.setId("alarmsTable");
        acknowledge.setId("acknowledgeAlarm");
        acknowledgeAll.setId("acknowledgeAllAlarms");
        summary.setId("alarmSummary");
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setPlaceholder(new Label("no alarms"));
        table.getColumns().addAll(List.of(
                Columns.wide(Columns.<AlarmLatch.Entry, String>of("severity", e -> e.alarm().severity(), s -> s, AlarmsView::severityStyle), 100),
                Columns.wide(Columns.<AlarmLatch.Entry, String>of("latched", e -> e.latched() ? "LATCHED" : e.acknowledged() ? "acknowledged" : "—",
                        s -> s, s -> s.equals("LATCHED") ? "state-bad" : null), 130),
                Columns.text("source", e -> e.alarm().source()),
                Columns.wide(Columns.<AlarmLatch.Entry>text("kind", e -> e.alarm().kind()), 140),
                Columns.wide(Columns.<AlarmLatch.Entry>text("message", e -> e.alarm().message()
                        + (e.present() ? "" : "  (no longer listed by the broker)")), 420),
                Columns.of("count", e -> e.alarm().count(), String::valueOf),
                Columns.wide(Columns.<AlarmLatch.Entry, Instant>of("first seen", e -> e.alarm().firstSeen(), AlarmsView::time), 200),
                Columns.wide(Columns.<AlarmLatch.Entry, Instant>of("last seen", e -> e.alarm().lastSeen(), AlarmsView::time), 200)));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        acknowledge.setOnAction(e -> acknowledgeSelected());
        acknowledgeAll.setOnAction(e -> {
            rows.forEach(r -> latch.acknowledge(r.identity()));
            refresh();
        });
        table.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                acknowledgeSelected();
                e.consume();
            }
        });
        HBox bar = new HBox(12, acknowledge, acknowledgeAll, summary);
        bar.setPadding(new Insets(8));
        root.setTop(new javafx.scene.layout.VBox(bar, banner.node()));
        root.setCenter(table);
    }

    private static String severityStyle(String s) {
        return switch (s) {
            case "CRITICAL" -> "state-bad";
            case "WARNING" -> "state-warn";
            default -> "state-idle";
        };
    }

    private static String time(Instant t) {
        return TIME.format(t);
    }

    public BorderPane node() {
        return root;
    }

    public TableView<AlarmLatch.Entry> table() {
        return table;
    }

    private void acknowledgeSelected() {
        for (AlarmLatch.Entry e : List.copyOf(table.getSelectionModel().getSelectedItems())) {
            latch.acknowledge(e.identity());
        }
        refresh();
    }

    private void refresh() {
        List<AlarmLatch.Entry> entries = latch.entries();
        if (!rows.equals(entries)) { // unchanged: the lines, and the operator's selection, stay as they are
            java.util.Set<String> selected = new java.util.HashSet<>();
            table.getSelectionModel().getSelectedItems().forEach(e -> selected.add(e.identity()));
            rows.setAll(entries);
            // selected again at once: a row at a time, a thousand selected alarms took the UI thread
            // for a few hundred milliseconds at every pulse that changed an alarm
            int[] again = new int[rows.size()];
            int n = 0;
            for (int i = 0; i < rows.size(); i++) {
                if (selected.contains(rows.get(i).identity())) {
                    again[n++] = i;
                }
            }
            if (n > 0) {
                table.getSelectionModel().selectIndices(again[0], java.util.Arrays.copyOfRange(again, 1, n));
            }
        }
        int n = latch.latchedCount();
        summary.setText(n == 0 ? "no latched alarms" : n + " latched alarm" + (n == 1 ? "" : "s") + " to acknowledge");
        summary.getStyleClass().setAll("label", n == 0 ? "state-good" : "state-bad");
    }

    /** The line saying why the alarms may not be current, or {@code null} when hidden (for tests). */
    public String staleText() {
        return banner.text();
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        // latched alarms stay whatever the connection; what the broker lists may have moved on
        banner.show(s.staleness(org.gridstat.gui.feed.Resource.ALARMS), s.live() ? 0 : s.lastGoodMillis());
        if (changed) {
            // the latch took the snapshot's alarms already (the window does, before any view)
            refresh();
        }
    }
}
