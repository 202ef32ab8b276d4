package org.gridstat.gui.view;

import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.gridstat.gui.action.SubscriptionActions;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.model.Variable;

/**
 * The flows view: the admitted subscriptions above (what actions act on), every flow in the
 * routers below with its figures, a filter, the action buttons and the last action's outcome.
 */
public final class FlowsView implements PulseView {
    private final FlowTable flows = new FlowTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final BorderPane root = new BorderPane();
    private final StaleBanner banner = new StaleBanner("flowsStale", null);
    private ConsoleSnapshot last;

    public FlowsView(SubscriptionActions actions, Consumer<FlowRow> chart) {
        Button admit = new Button("_Admit…");
        Button modify = new Button("_Modify…");
        Button group = new Button("Correlation _group…");
        Button tearDown = new Button("_Tear down…");
        admit.setId("admitButton");
        modify.setId("modifyButton");
        group.setId("groupButton");
        tearDown.setId("tearDownButton");
        admit.setOnAction(e -> actions.admit(root.getScene().getWindow(), variables(), routers()));
        modify.setOnAction(e -> actions.modify(root.getScene().getWindow(), subscriptions.selected(), false));
        group.setOnAction(e -> actions.modify(root.getScene().getWindow(), subscriptions.selected(), true));
        tearDown.setOnAction(e -> actions.tearDown(root.getScene().getWindow(), subscriptions.selected()));
        // one action at a time: the buttons wait for the running one's outcome
        admit.disableProperty().bind(actions.running());
        modify.disableProperty().bind(subscriptions.table().getSelectionModel().selectedItemProperty().isNull()
                .or(actions.running()));
        group.disableProperty().bind(modify.disableProperty());
        tearDown.disableProperty().bind(modify.disableProperty());
        Label filterLabel = new Label("_Filter");
        filterLabel.setMnemonicParsing(true);
        filterLabel.setLabelFor(flows.filter());
        HBox.setHgrow(flows.filter(), Priority.ALWAYS);
        HBox bar = new HBox(10, admit, modify, group, tearDown, filterLabel, flows.filter());
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(8));
        Label subsTitle = new Label("Subscriptions (select one to modify or tear it down)");
        Label flowsTitle = new Label("Flows in the routers (double-click or Enter: its charts)");
        subsTitle.getStyleClass().add("section");
        flowsTitle.getStyleClass().add("section");
        VBox upper = new VBox(4, subsTitle, subscriptions.table());
        VBox lower = new VBox(4, flowsTitle, flows.table());
        VBox.setVgrow(subscriptions.table(), Priority.ALWAYS);
        VBox.setVgrow(flows.table(), Priority.ALWAYS);
        SplitPane split = new SplitPane(upper, lower);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.35);
        root.setTop(new VBox(bar, banner.node()));
        root.setCenter(split);
        HBox outcome = new HBox(actions.outcome());
        outcome.setPadding(new Insets(6, 8, 6, 8));
        root.setBottom(outcome);
        flows.table().setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && flows.selected() != null) {
                chart.accept(flows.selected());
            }
        });
        flows.table().setOnKeyPressed(e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ENTER && flows.selected() != null) {
                chart.accept(flows.selected());
            }
        });
    }

    private List<String> variables() {
        return last == null || last.variables() == null ? List.of()
                : last.variables().value().stream().map(Variable::name).sorted().toList();
    }

    private List<String> routers() {
        return last == null || last.topology() == null ? List.of()
                : last.topology().value().routers().stream().map(NetworkTopology.Router::id).sorted().toList();
    }

    public BorderPane node() {
        return root;
    }

    public FlowTable flows() {
        return flows;
    }

    public SubscriptionTable subscriptions() {
        return subscriptions;
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        last = s;
        subscriptions.show(s, changed);
        flows.show(s, changed);
        banner.show(why(s), s.live() ? 0 : s.lastGoodMillis());
        mark(subscriptions.table(), s.staleness(Resource.SUBSCRIPTIONS) != null);
    }

    /** Why the view's figures may not be current: not live, or some flows' routers have stopped reporting. */
    static String why(ConsoleSnapshot s) {
        String notLive = s.staleness(Resource.FLOWS);
        if (notLive != null) {
            return notLive;
        }
        long aged = s.flows().stream().filter(s::stale).count();
        return aged == 0 ? null : aged + (aged == 1 ? " flow's figures are" : " flows' figures are") + " more than "
                + ConsoleSnapshot.FLOW_REPORT_STALE_MILLIS / 1000 + " s old: their routers have not reported since"
                + " (dimmed below)";
    }

    private static void mark(javafx.scene.control.Control table, boolean stale) {
        if (stale && !table.getStyleClass().contains("stale")) {
            table.getStyleClass().add("stale");
        } else if (!stale) {
            table.getStyleClass().remove("stale");
        }
    }

    /** The line saying why the flows may not be current, or {@code null} when hidden (for tests). */
    public String staleText() {
        return banner.text();
    }
}
