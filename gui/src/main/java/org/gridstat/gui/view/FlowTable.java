package org.gridstat.gui.view;

import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.collections.transformation.SortedList;
import javafx.css.PseudoClass;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.FlowKey;

/**
 * Every flow in the routers, a line each, sortable by any column (click its head) and filtered by
 * the words typed in the filter field. On a pulse with new data (and once a second without) the
 * lines are replaced and the selected flow stays selected. A flow whose figures may no longer be
 * current ({@link FlowRow#stale}) is dimmed.
 */
public final class FlowTable implements PulseView {
    private final ObservableList<FlowRow> rows = FXCollections.observableArrayList();
    private final FilteredList<FlowRow> filtered = new FilteredList<>(rows);
    private final TableView<FlowRow> table = new TableView<>();
    private final TextField filter = new TextField();
    private long madeAtMillis = Long.MIN_VALUE / 2;

    public FlowTable() {
        table.setId("flowTable");
        filter.setId("flowFilter");
        filter.setPromptText("filter flows: variable, router, link, class, state…");
        filter.textProperty().addListener((o, was, now) -> filtered.setPredicate(r -> r.matches(now)));
        SortedList<FlowRow> sorted = new SortedList<>(filtered);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        table.setPlaceholder(new javafx.scene.control.Label("no flows installed"));
        table.getColumns().addAll(List.of(
                Columns.wide(Columns.text("variable", FlowRow::variable), 230),
                Columns.wide(Columns.text("publisher", FlowRow::publisher), 95),
                Columns.wide(Columns.text("subscribers", FlowRow::subscribers), 130),
                Columns.wide(Columns.text("router", FlowRow::router), 70),
                Columns.wide(Columns.text("link", FlowRow::link), 60),
                Columns.wide(Columns.of("class", FlowRow::serviceClass, s -> s, s -> "class-" + s.toLowerCase(java.util.Locale.ROOT)), 65),
                Columns.of("AR", FlowRow::assured, Shown::bytesPerSecond),
                Columns.wide(Columns.of("MR", FlowRow::minimum, Shown::bytesPerSecond), 55),
                Columns.of("CR", FlowRow::ceiling, Shown::bytesPerSecond),
                Columns.of("demand", FlowRow::demand, Shown::bytesPerSecond),
                Columns.wide(Columns.of("state", FlowRow::state, s -> s, s -> "CONGESTED".equals(s) ? "state-bad" : "state-good"), 115),
                Columns.wide(Columns.of("latency p99", FlowRow::latencyP99Micros, Shown::latency), 115),
                Columns.wide(Columns.of("AR in force", FlowRow::assuredInForce, Shown::bytesPerSecond), 110),
                Columns.wide(Columns.of("reassigned", FlowRow::reassigned, Shown::reassigned,
                        r -> r < 0 ? "state-warn" : null), 110),
                Columns.wide(Columns.of("reassignments", FlowRow::reassignments, Shown::count), 120),
                Columns.wide(Columns.of("held", FlowRow::heldRateHz, h -> h > 0 ? "to " + Shown.hz(h) : "no"), 80),
                Columns.wide(Columns.of("deadline misses", FlowRow::deadlineMisses, Shown::count), 140),
                Columns.of("drops", FlowRow::overflowDrops, Shown::count),
                Columns.of("backlog", FlowRow::backlog, Shown::count),
                Columns.of("sent", FlowRow::departure, Shown::bytesPerSecond)));
        table.getColumns().forEach(c -> c.setId("flowColumn-" + c.getText().replace(' ', '-')));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(FlowRow item, boolean empty) {
                super.updateItem(item, empty);
                pseudoClassStateChanged(STALE, !empty && item != null && item.stale());
            }
        });
    }

    private static final PseudoClass STALE = PseudoClass.getPseudoClass("stale");

    public TableView<FlowRow> table() {
        return table;
    }

    public TextField filter() {
        return filter;
    }

    /** The lines shown now, filtered and sorted. */
    public List<FlowRow> shownRows() {
        return List.copyOf(table.getItems());
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        // unchanged, the lines are still made again once a second: a flow whose router fell silent ages into stale
        if (!changed && s.takenAtMillis() - madeAtMillis < 1_000) {
            return;
        }
        madeAtMillis = s.takenAtMillis();
        FlowRow selected = table.getSelectionModel().getSelectedItem();
        FlowKey keep = selected == null ? null : selected.key();
        rows.setAll(FlowRow.of(s));
        if (keep != null) {
            for (FlowRow r : table.getItems()) {
                if (r.key().equals(keep)) {
                    table.getSelectionModel().select(r);
                    break;
                }
            }
        }
    }

    public FlowRow selected() {
        return table.getSelectionModel().getSelectedItem();
    }
}
