package org.gridstat.gui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.SortedList;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.Device;
import org.gridstat.gui.model.Gateway;

/**
 * The devices (PMUs, PDCs) the phasor gateways read, a line each, health first, in colour and in
 * words: GOOD, ALARM (sync error or time not locked), STALE (not streaming, or the gateway itself
 * silent), BAD (data errors). Each report's age grows on the console's clock between the broker's
 * updates. When the console is not live, a line above says so and the table is dimmed.
 */
public final class DevicesView implements PulseView {
    /** A device as shown: its gateway's report, and the health the console shows for it. */
    public record DeviceRow(String gateway, String device, String health, String state, String timeQuality,
                            Integer dataRateHz, Integer configCount, Long lastDataAgeMs, long reportAgeMs,
                            String errors) {
    }

    private final ObservableList<DeviceRow> rows = FXCollections.observableArrayList();
    private final TableView<DeviceRow> table = new TableView<>();
    private final StaleBanner banner = new StaleBanner("devicesStale", table);
    private final javafx.scene.layout.BorderPane root = new javafx.scene.layout.BorderPane(table);
    private long madeAtMillis = Long.MIN_VALUE / 2;

    public DevicesView() {
        table.setId("devicesTable");
        SortedList<DeviceRow> sorted = new SortedList<>(rows);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        table.setPlaceholder(new Label("no gateway has reported devices to the broker"));
        table.getColumns().addAll(List.of(
                Columns.wide(Columns.of("health", DeviceRow::health, DevicesView::healthText, DevicesView::healthStyle), 110),
                Columns.wide(Columns.text("gateway", DeviceRow::gateway), 140),
                Columns.text("device", DeviceRow::device),
                Columns.wide(Columns.text("state", DeviceRow::state), 150),
                Columns.wide(Columns.text("time quality", DeviceRow::timeQuality), 180),
                Columns.of("rate", DeviceRow::dataRateHz, r -> r + " /s"),
                Columns.of("CFGCNT", DeviceRow::configCount, String::valueOf),
                Columns.of("last data", DeviceRow::lastDataAgeMs, ms -> Shown.age(ms) + " ago"),
                Columns.of("report age", DeviceRow::reportAgeMs, Shown::age),
                Columns.wide(Columns.text("errors", DeviceRow::errors), 300)));
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        root.setTop(banner.node());
    }

    public TableView<DeviceRow> table() {
        return table;
    }

    /** The view: the line saying why the devices may not be current, and the table. */
    public javafx.scene.layout.BorderPane node() {
        return root;
    }

    /** The line saying why the devices may not be current, or {@code null} when hidden (for tests). */
    public String staleText() {
        return banner.text();
    }

    static String healthText(String health) {
        return switch (health) {
            case "good" -> "● GOOD";
            case "alarm" -> "▲ ALARM";
            case "stale" -> "◌ STALE";
            case "bad" -> "✖ BAD";
            default -> health.toUpperCase(Locale.ROOT);
        };
    }

    static String healthStyle(String health) {
        return switch (health) {
            case "good" -> "state-good";
            case "alarm" -> "state-warn";
            case "bad" -> "state-bad";
            default -> "state-idle";
        };
    }

    /**
     * @param sinceMillis how long ago the console received the gateways' reports: each report's age is
     *                    its {@code reportAgeMs} as the broker sent it plus this
     */
    static List<DeviceRow> rows(List<Gateway> gateways, long sinceMillis) {
        List<DeviceRow> out = new ArrayList<>();
        for (Gateway g : gateways) {
            for (Device d : g.devices()) {
                // a silent gateway's devices are shown as last reported: stale, whatever they were
                String health = g.stale() ? "stale" : d.health();
                String tq = d.timeQualityCode() == null ? null : d.timeQualityCode() == 0 ? "locked to UTC"
                        : "code " + d.timeQualityCode() + " (not locked)";
                if (tq != null && d.leapPending()) {
                    tq += ", leap second pending";
                }
                List<String> errors = new ArrayList<>();
                if (d.dataError() != null && d.dataError() != 0) {
                    errors.add("data error " + d.dataError());
                }
                if (Boolean.TRUE.equals(d.syncError())) {
                    errors.add("sync error");
                }
                long rejects = d.rejects().values().stream().mapToLong(Long::longValue).sum();
                if (rejects > 0) {
                    errors.add(rejects + " frames rejected");
                }
                d.counters().forEach((k, v) -> {
                    if (k.startsWith("DATA_") && !k.equals("DATA_FRAMES") && v > 0) {
                        errors.add(k + " " + v);
                    }
                });
                if (g.stale()) {
                    errors.add(0, "gateway silent");
                }
                out.add(new DeviceRow(g.gateway(), d.name(), health, d.state(), tq, d.dataRateHz(), d.configCount(),
                        d.lastDataAgeMs(), g.reportAgeMs() + Math.max(0, sinceMillis),
                        errors.isEmpty() ? null : String.join(", ", errors)));
            }
        }
        return out;
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        banner.show(s.staleness(Resource.DEVICES), s.live() ? 0 : s.lastGoodMillis());
        // the reports' ages grow without new data (the broker sends devices when they change): once a second
        if (s.gateways() != null && (changed || s.takenAtMillis() - madeAtMillis >= 1_000)) {
            madeAtMillis = s.takenAtMillis();
            rows.setAll(rows(s.gateways().value(), s.takenAtMillis() - s.gateways().atMillis()));
        }
    }
}
