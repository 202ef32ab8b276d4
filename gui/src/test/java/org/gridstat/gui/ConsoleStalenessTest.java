package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.Alarm;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.Device;
import org.gridstat.gui.model.Flow;
import org.gridstat.gui.model.FlowStatistics;
import org.gridstat.gui.model.Gateway;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.view.ConsoleWindow;
import org.gridstat.gui.view.DevicesView;
import org.gridstat.gui.view.FlowRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What the views mark as possibly no longer the broker's (TestFX, headless), on a model fed by the
 * test on a clock it moves: a flow whose router stopped reporting is dimmed while the others are
 * not; a gateway's report ages on the console's clock between the broker's updates; when the
 * console is not live every view says so and dims its table; a resource the feed could not refresh
 * is marked on its own while the rest stays live.
 */
@Timeout(30)
class ConsoleStalenessTest {
    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final ConsoleModel model = new ConsoleModel(now::get);
    private BrokerActions actions;
    private ConsoleWindow window;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        actions = new BrokerActions(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:9")),
                Duration.ofSeconds(1), Duration.ofSeconds(1))); // never called here
        FxToolkit.setupStage(s -> {
            window = new ConsoleWindow(model, actions, AdmissionPreview.UNAVAILABLE, "(fed by the test)");
            s.setScene(window.scene());
            s.show(); // not started: the test pulses, on its clock
        });
        long t = now.get();
        model.received(Resource.TOPOLOGY, new NetworkTopology(List.of(new NetworkTopology.Router("r1", 1000, ""),
                new NetworkTopology.Router("r2", 1000, "")), List.of()), t);
        model.received(Resource.FLOWS, List.of(flow("r1", 1, t - 200), flow("r2", 2, t - 9_000)), t);
        model.received(Resource.DEVICES, List.of(new Gateway("substation-a", "", 1_500, 2_000, false, List.of(
                new Device("pmu-1", "STREAMING", "good", 1, 30, 0, false, 10L, 0, false, Map.of(), Map.of())))), t);
        model.received(Resource.ALARMS, List.<Alarm>of(), t);
        model.connection(new ConnectionState(ConnectionState.Kind.LIVE, t, "test", ""));
        pulse();
    }

    @AfterEach
    void close() {
        actions.close();
    }

    private static Flow flow(String router, long id, long reportedAt) {
        return new Flow(router, id, 1, 7, "cc", "HRT", 4_000, 4_000L, 8_000, List.of(20_000_000L),
                new FlowStatistics(reportedAt, 10, 600, 0, 0, 0, 3_000, 3_000, 3_000, "STABLE", 4_000, 0, 0, 120L, 0L));
    }

    @Test
    void aFlowWhoseRouterStoppedReportingIsDimmedAndTheOthersAreNot() {
        List<FlowRow> rows = fx(() -> window.flows().flows().shownRows());
        assertFalse(rows.get(0).stale(), "r1 reported 0.2 s ago");
        assertTrue(rows.get(1).stale(), "r2 last reported 9 s ago, though the broker still lists its flow");
        assertEquals(now.get() - 9_000, rows.get(1).asOfMillis(), "as of its router's report, not its receipt");
        assertTrue(fx(() -> window.flows().staleText()).contains("1 flow's figures are more than 5 s old"),
                fx(() -> window.flows().staleText()));
        assertNull(fx(() -> window.devices().staleText()), "live: the devices are current");
        assertNull(fx(() -> window.alarms().staleText()));
        assertFalse(fx(() -> window.topology().marksStale()));
    }

    @Test
    void aGatewaysReportAgesOnTheConsolesClockBetweenTheBrokersUpdates() {
        assertEquals(1_500, reportAge());
        now.addAndGet(3_000); // nothing new from the broker: an unchanged report is not sent again
        pulse();
        assertEquals(4_500, reportAge(), "the age the broker sent, plus the time since");
    }

    @Test
    void whenTheConsoleIsNotLiveEveryViewSaysSoAndDimsItsTable() {
        model.connection(new ConnectionState(ConnectionState.Kind.STALE, now.get(), "test", "the event stream ended"));
        now.addAndGet(1_000);
        pulse();
        for (String text : List.of(fx(() -> window.flows().staleText()), fx(() -> window.devices().staleText()),
                fx(() -> window.alarms().staleText()), fx(() -> window.charts().staleText()))) {
            assertNotNull(text);
            assertTrue(text.startsWith("◐ not live: the event stream ended — shown as of "), text);
        }
        assertTrue(fx(() -> window.devices().table().getStyleClass().contains("stale")));
        assertTrue(fx(() -> window.alarms().table().getStyleClass().contains("stale")));
        assertTrue(fx(() -> window.flows().flows().shownRows().stream().allMatch(FlowRow::stale)));
        assertTrue(fx(() -> window.topology().marksStale()));

        model.connection(new ConnectionState(ConnectionState.Kind.LIVE, now.get(), "test", ""));
        pulse();
        assertNull(fx(() -> window.devices().staleText()), "live again");
        assertFalse(fx(() -> window.devices().table().getStyleClass().contains("stale")));
    }

    @Test
    void aResourceThatCouldNotBeRefreshedIsMarkedAloneWhileTheRestStaysLive() {
        model.unrefreshed(Resource.TOPOLOGY, "/topology: the broker answered 500");
        model.unrefreshed(Resource.COUNTERS, "/topology: the broker answered 500");
        pulse();
        assertTrue(fx(() -> window.topology().marksStale()));
        assertTrue(fx(() -> window.charts().staleText()).contains("links' charts: counters not refreshed"),
                fx(() -> window.charts().staleText()));
        assertNull(fx(() -> window.devices().staleText()), "the streamed resources are current");
        assertFalse(fx(() -> window.flows().flows().shownRows().get(0).stale()));

        model.received(Resource.TOPOLOGY, fx(() -> window.shown().topology().value()), now.get()); // read again
        pulse();
        assertFalse(fx(() -> window.topology().marksStale()));
    }

    private long reportAge() {
        List<DevicesView.DeviceRow> rows = fx(() -> List.copyOf(window.devices().table().getItems()));
        assertEquals(1, rows.size());
        return rows.get(0).reportAgeMs();
    }

    private void pulse() {
        fx(() -> {
            window.pulse().pulseNow();
            return null;
        });
    }

    private static <T> T fx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
