package org.gridstat.gui.view;

import java.util.List;
import java.util.Objects;
import javafx.scene.Scene;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.action.SubscriptionActions;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ChartHistory;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.ConsoleSnapshot;

/**
 * The console's window content: five views in tabs (Ctrl+1 topology, Ctrl+2 flows, Ctrl+3 charts,
 * Ctrl+4 devices, Ctrl+5 alarms) above the status bar, all repainted by one {@link ConsolePulse}.
 */
public final class ConsoleWindow {
    public static final double WIDTH = 1280;
    public static final double HEIGHT = 800;
    private final TabPane tabs = new TabPane();
    private final TopologyView topology;
    private final FlowsView flows;
    private final ChartsView charts;
    private final DevicesView devices = new DevicesView();
    private final AlarmsView alarms;
    private final StatusBar status;
    private final ConsolePulse pulse;
    private final Scene scene;
    private final Tab alarmsTab;

    public ConsoleWindow(ConsoleModel model, BrokerActions broker, AdmissionPreview preview, String brokers) {
        AlarmLatch latch = new AlarmLatch();
        topology = new TopologyView(latch);
        charts = new ChartsView(model.history());
        flows = new FlowsView(new SubscriptionActions(broker, preview), row -> {
            charts.select(ChartHistory.flowKey(row.key()));
            tabs.getSelectionModel().select(2);
        });
        alarms = new AlarmsView(latch);
        status = new StatusBar(brokers, latch);
        alarmsTab = tab("5  Alarms", alarms.node(), "alarmsTab");
        tabs.getTabs().addAll(List.of(tab("1  Topology", topology.node(), "topologyTab"),
                tab("2  Flows", flows.node(), "flowsTab"), tab("3  Charts", charts.node(), "chartsTab"),
                tab("4  Devices", devices.node(), "devicesTab"), alarmsTab));
        tabs.setId("views");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        BorderPane root = new BorderPane(tabs);
        root.setBottom(status.node());
        root.getStyleClass().add("console");
        scene = new Scene(root, WIDTH, HEIGHT);
        scene.getStylesheets().add(Objects.requireNonNull(ConsoleWindow.class.getResource("console.css")).toExternalForm());
        KeyCode[] digits = {KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4, KeyCode.DIGIT5};
        for (int i = 0; i < digits.length; i++) {
            int view = i;
            scene.getAccelerators().put(new KeyCodeCombination(digits[i], KeyCombination.SHORTCUT_DOWN),
                    () -> showView(view));
        }
        PulseView alarmCount = (s, changed) -> {
            int n = latch.latchedCount();
            alarmsTab.setText(n == 0 ? "5  Alarms" : "5  Alarms (" + n + " latched)");
        };
        pulse = new ConsolePulse(model, latch, List.of(status, topology, flows, charts, devices, alarms, alarmCount));
    }

    private static Tab tab(String title, javafx.scene.Node content, String id) {
        Tab t = new Tab(title, content);
        t.setId(id);
        return t;
    }

    /**
     * Shows view {@code index} (0: topology .. 4: alarms) and gives the keyboard to what is worked
     * with in it: the flow table (Enter: its charts), the list of charts, the devices, the alarms
     * (Enter: acknowledge), so arrows and Enter act at once rather than after a run of Tabs.
     */
    public void showView(int index) {
        tabs.getSelectionModel().select(index);
        javafx.scene.Node content = switch (index) {
            case 1 -> flows.flows().table();
            case 2 -> charts.choices();
            case 3 -> devices.table();
            case 4 -> alarms.table();
            default -> tabs.getTabs().get(index).getContent();
        };
        content.requestFocus();
    }

    public Scene scene() {
        return scene;
    }

    /** Starts the pulse: the views repaint from the model from now on. */
    public void start() {
        pulse.pulseNow();
        pulse.start();
    }

    public void stop() {
        pulse.stop();
    }

    public ConsolePulse pulse() {
        return pulse;
    }

    public TabPane tabs() {
        return tabs;
    }

    public FlowsView flows() {
        return flows;
    }

    public ChartsView charts() {
        return charts;
    }

    public AlarmsView alarms() {
        return alarms;
    }

    public DevicesView devices() {
        return devices;
    }

    public TopologyView topology() {
        return topology;
    }

    public StatusBar status() {
        return status;
    }

    /** The snapshot shown now. */
    public ConsoleSnapshot shown() {
        return pulse.shown();
    }
}
