package org.gridstat.gui.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.gridstat.gui.model.ChartHistory;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.Flow;
import org.gridstat.gui.model.RouterCounters;
import org.gridstat.gui.model.SeriesHistory;
import org.gridstat.gui.model.Stamped;
import org.gridstat.gui.model.Variable;

/**
 * Live charts of one flow or link, chosen from the list: throughput, drops (overflow drops and
 * deadline misses per second), backlog and, for a flow, its latency p99 at its router (queueing at
 * that hop over each report's period) over the last five minutes, from the routers' reports. The
 * routers report latency per flow, not per link: a link's latency chart says so rather than draw
 * one.
 */
public final class ChartsView implements PulseView {
    private final ChartHistory history;
    private final ObservableList<String> choices = FXCollections.observableArrayList();
    private final ListView<String> list = new ListView<>(choices);
    private final Map<String, String> keysByLabel = new TreeMap<>();
    private final LiveChart throughput = new LiveChart("throughputChart", "throughput", v -> Shown.bytesPerSecond(Math.round(v)));
    private final LiveChart drops = new LiveChart("dropsChart", "drops and deadline misses", v -> Shown.decimal(v) + " /s");
    private final LiveChart backlog = new LiveChart("backlogChart", "backlog", v -> Shown.decimal(v) + " events");
    private final LiveChart latency = new LiveChart("latencyChart", "latency p99 at this hop (queueing)",
            v -> v == 1 ? Shown.latency(1L) : Shown.micros(v)); // 1: within the router's 1 µs resolution
    private final SplitPane root;
    private final StaleBanner banner = new StaleBanner("chartsStale", null);
    private long lastNow;

    public ChartsView(ChartHistory history) {
        this.history = history;
        list.setId("chartChoices");
        list.setPrefWidth(360);
        VBox charts = new VBox(8, banner.node(), throughput.node(), drops.node(), backlog.node(), latency.node());
        charts.setPadding(new Insets(8));
        VBox.setVgrow(throughput.node(), Priority.ALWAYS);
        VBox.setVgrow(drops.node(), Priority.ALWAYS);
        VBox.setVgrow(backlog.node(), Priority.ALWAYS);
        VBox.setVgrow(latency.node(), Priority.ALWAYS);
        root = new SplitPane(list, charts);
        root.setDividerPositions(0.28);
        list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> redraw(lastNow));
    }

    public SplitPane node() {
        return root;
    }

    public ListView<String> choices() {
        return list;
    }

    /** Selects the chart of a flow or link by its history key ({@link ChartHistory#flowKey}, {@link ChartHistory#linkKey}). */
    public void select(String key) {
        keysByLabel.forEach((label, k) -> {
            if (k.equals(key)) {
                list.getSelectionModel().select(label);
                list.scrollTo(label);
            }
        });
    }

    /** The line saying why the charts may not be current, or {@code null} when hidden (for tests). */
    public String staleText() {
        return banner.text();
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        // flows' charts come from the streamed flows, links' from the counters read every few seconds
        String why = s.staleness(org.gridstat.gui.feed.Resource.FLOWS);
        if (why == null && s.staleness(org.gridstat.gui.feed.Resource.COUNTERS) != null) {
            why = "links' charts: " + s.staleness(org.gridstat.gui.feed.Resource.COUNTERS);
        }
        banner.show(why, s.live() ? 0 : s.lastGoodMillis());
        if (changed) {
            Map<String, String> now = new TreeMap<>();
            Map<Long, String> names = new java.util.HashMap<>();
            if (s.variables() != null) {
                for (Variable v : s.variables().value()) {
                    names.put(v.id(), v.name());
                }
            }
            if (s.counters() != null) {
                for (RouterCounters r : s.counters().value()) {
                    for (String link : r.links().keySet()) {
                        now.put("link " + r.router() + " → " + link, ChartHistory.linkKey(r.router(), link));
                    }
                }
            }
            for (Stamped<Flow> st : s.flows()) {
                Flow f = st.value();
                now.put("flow " + f.router() + " → " + f.link() + "  " + names.getOrDefault(f.variableId(), "#" + f.variableId())
                        + "  (" + f.key() + ")", ChartHistory.flowKey(f.key()));
            }
            if (!now.equals(keysByLabel)) {
                String selected = list.getSelectionModel().getSelectedItem();
                keysByLabel.clear();
                keysByLabel.putAll(now);
                choices.setAll(new ArrayList<>(now.keySet()));
                if (selected != null && now.containsKey(selected)) {
                    list.getSelectionModel().select(selected);
                }
            }
            if (list.getSelectionModel().isEmpty() && !choices.isEmpty()) {
                list.getSelectionModel().select(0);
            }
        }
        // the time axis moves even when no new report came
        redraw(s.takenAtMillis());
    }

    private void redraw(long nowMillis) {
        lastNow = nowMillis;
        String label = list.getSelectionModel().getSelectedItem();
        ChartHistory.Trace t = label == null ? null : history.trace(keysByLabel.get(label));
        long from = nowMillis - SeriesHistory.WINDOW_MILLIS;
        SeriesHistory.Points none = new SeriesHistory.Points(new long[0], new double[0]);
        String why = label == null ? "select a flow or a link" : "no report from its router yet";
        throughput.show(t == null ? none : t.throughput.since(from), nowMillis, why);
        drops.show(t == null ? none : t.drops.since(from), nowMillis, label == null ? why : "needs two reports");
        backlog.show(t == null ? none : t.backlog.since(from), nowMillis, why);
        String key = label == null ? null : keysByLabel.get(label);
        latency.show(t == null || key == null || !key.startsWith("flow ") ? none : t.latency.since(from), nowMillis,
                key != null && !key.startsWith("flow ") ? "per flow only: the routers report latency per flow, not per link"
                        : t == null ? why : "no report of an event sent yet");
    }

    /** The charts' labels offered, for tests. */
    public List<String> offered() {
        return List.copyOf(choices);
    }
}
