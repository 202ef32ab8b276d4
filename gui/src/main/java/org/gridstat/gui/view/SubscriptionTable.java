package org.gridstat.gui.view;

import java.util.List;
import java.util.Locale;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.SortedList;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.Hop;
import org.gridstat.gui.model.Subscription;

/** The admitted subscriptions, the operator's handle for actions: select one to modify or tear it down. */
public final class SubscriptionTable implements PulseView {
    private final ObservableList<Subscription> rows = FXCollections.observableArrayList();
    private final TableView<Subscription> table = new TableView<>();

    public SubscriptionTable() {
        table.setId("subscriptionTable");
        SortedList<Subscription> sorted = new SortedList<>(rows);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        table.setPlaceholder(new Label("no subscriptions admitted"));
        table.getColumns().addAll(List.of(
                Columns.wide(Columns.of("id", Subscription::id, String::valueOf), 50),
                Columns.wide(Columns.text("variable", Subscription::variable), 240),
                Columns.wide(Columns.text("subscriber", s -> s.subscriberRouter() + "/" + s.subscriberLink()), 100),
                Columns.of("class", Subscription::serviceClass, c -> c, c -> "class-" + c.toLowerCase(Locale.ROOT)),
                Columns.of("rate", Subscription::rateHz, Shown::hz),
                Columns.of("bound", Subscription::latencyBoundMs, Shown::ms),
                Columns.wide(Columns.of("paths", Subscription::pathCount, String::valueOf), 60),
                Columns.wide(Columns.text("route", SubscriptionTable::route), 260),
                Columns.wide(Columns.text("group", s -> s.correlationGroup().isEmpty() ? null : s.correlationGroup()), 110),
                Columns.wide(Columns.of("install", SubscriptionTable::install, t -> t,
                        t -> t.startsWith("installed") ? "state-good" : t.startsWith("refused") ? "state-bad" : "state-warn"),
                        240)));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
    }

    private static String route(Subscription s) {
        return String.join("  ", s.paths().stream().map(p -> String.join("→", p.stream().map(Hop::router).toList())).toList());
    }

    private static String install(Subscription s) {
        return switch (s.state()) {
            case "installRefused" -> "refused: " + String.join("; ", s.installRefusals());
            case "" -> null;
            default -> s.state();
        };
    }

    public TableView<Subscription> table() {
        return table;
    }

    public Subscription selected() {
        return table.getSelectionModel().getSelectedItem();
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        if (!changed || s.subscriptions() == null || rows.equals(s.subscriptions().value())) {
            return; // unchanged: the lines, and the operator's selection, stay as they are
        }
        Subscription selected = selected();
        rows.setAll(s.subscriptions().value());
        if (selected != null) {
            for (Subscription r : table.getItems()) {
                if (r.id() == selected.id()) {
                    table.getSelectionModel().select(r);
                    break;
                }
            }
        }
    }
}
