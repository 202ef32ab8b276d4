package org.gridstat.gui.view;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.BrokerStatus;
import org.gridstat.gui.model.ConsoleSnapshot;

/**
 * The line at the bottom, always in view: which broker, which replica answers and which leads,
 * whether the data is live (in colour and in words), how old it is, and why not live.
 */
public final class StatusBar implements PulseView {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private final HBox root = new HBox(18);
    private final Label broker = new Label();
    private final Label leader = new Label();
    private final Label state = new Label();
    private final Label age = new Label();
    private final Label detail = new Label();
    private final Label counts = new Label();
    private final AlarmLatch latch;

    public StatusBar(String brokers, AlarmLatch latch) {
        this.latch = latch;
        root.setId("statusBar");
        state.setId("connectionState");
        age.setId("dataAge");
        leader.setId("leader");
        detail.setId("connectionDetail");
        counts.setId("statusCounts");
        broker.setText("broker " + brokers);
        root.getStyleClass().add("status-bar");
        root.setPadding(new Insets(6, 12, 6, 12));
        root.setAlignment(Pos.CENTER_LEFT);
        for (Label l : new Label[] {state, age, broker, leader, counts}) {
            l.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE); // the reason may be cut, never these
        }
        detail.setMinWidth(0);
        detail.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(detail, Priority.ALWAYS);
        root.getChildren().addAll(state, age, broker, leader, counts, detail);
    }

    public HBox node() {
        return root;
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        ConnectionState c = s.connection();
        long dataAge = s.dataAgeMillis();
        String word = switch (c.kind()) {
            case LIVE -> "● LIVE";
            case STALE -> "◐ STALE";
            case RECONNECTING -> "↻ RECONNECTING";
        };
        state.setText(word);
        state.getStyleClass().setAll("label", "badge", switch (c.kind()) {
            case LIVE -> "badge-good";
            case STALE -> "badge-warn";
            case RECONNECTING -> "badge-bad";
        });
        age.setText(dataAge == Long.MAX_VALUE ? "no data yet" : "data " + Shown.age(dataAge) + " old"
                + (c.kind() == ConnectionState.Kind.LIVE ? "" : " (last good " + CLOCK.format(Instant.ofEpochMilli(
                s.lastGoodMillis())) + ")"));
        BrokerStatus b = s.status() == null ? null : s.status().value();
        leader.setText(b == null ? "replica —" : "replica " + b.replica() + (b.leader() ? " (leader)" : " (standby)")
                + (b.leader() || b.leaderApi().isEmpty() ? "" : ", leader " + b.leaderApi())
                + (s.live() && s.staleness(org.gridstat.gui.feed.Resource.STATUS) != null ? " (as last read)" : ""));
        if (changed) {
            int subs = s.subscriptions() == null ? 0 : s.subscriptions().value().size();
            int latched = latch.latchedCount();
            counts.setText(s.flows().size() + " flows · " + subs + " subscriptions · " + latched + " latched alarm"
                    + (latched == 1 ? "" : "s"));
        }
        detail.setText(c.detail());
    }

    public Label state() {
        return state;
    }
}
