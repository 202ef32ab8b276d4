package org.gridstat.gui;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.Flow;
import org.gridstat.gui.model.FlowStatistics;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.model.RouterSession;
import org.gridstat.gui.model.Variable;
import org.gridstat.gui.view.ConsoleWindow;
import org.gridstat.gui.view.PulseMeter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console under load: 1,000 flows, each updated 100 times a second (the whole list written to
 * the model every 10 ms, as a push channel's {@code flows} events would), while the flow table is
 * shown. Measures on the FX thread the longest gap between frames, the longest pulse and the
 * longest gap between pulses, and the oldest figure any pulse showed; writes them to
 * target/pulse-figures.txt (docs/BENCHMARKS.md). Asserts only that no figure shown was more than a
 * second old by the model's own receipt times, never a speed.
 */
class PulseUnderLoadTest {
    /** {@code -Dpulse.flows=0} measures the idle console for comparison. */
    static final int FLOWS = Integer.getInteger("pulse.flows", 1_000);
    static final long UPDATE_PERIOD_MILLIS = 10;
    static final long WARM_UP_MILLIS = 2_000;
    static final long MEASURE_MILLIS = 6_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aThousandFlowsAHundredTimesASecondShowNoFigureOlderThanASecond() throws Exception {
        ConsoleModel model = new ConsoleModel();
        long now = System.currentTimeMillis();
        List<NetworkTopology.Router> routers = new ArrayList<>();
        List<NetworkTopology.Link> links = new ArrayList<>();
        List<RouterSession> sessions = new ArrayList<>();
        for (int r = 0; r < 10; r++) {
            routers.add(new NetworkTopology.Router("r" + r, 200_000, ""));
            sessions.add(new RouterSession("r" + r, true, 0));
            links.add(new NetworkTopology.Link("r" + r, "r" + (r + 1) % 10, 12_500_000, 1_000_000,
                    Map.of("HRT", 50, "LRT", 30, "BE", 20)));
        }
        List<Variable> variables = new ArrayList<>();
        for (int v = 0; v < Math.max(FLOWS, 1); v++) {
            variables.add(new Variable("utility/sub" + v / 10 + "/pmu" + v % 10 + "/freq", v, "r" + v % 10, 56, 16_666_667,
                    "HRT", ""));
        }
        model.received(Resource.TOPOLOGY, new NetworkTopology(routers, links), now);
        model.received(Resource.ROUTERS, sessions, now);
        model.received(Resource.VARIABLES, variables, now);
        model.received(Resource.SUBSCRIPTIONS, List.of(), now);

        Stage stage = FxToolkit.registerPrimaryStage();
        BrokerActions actions = new BrokerActions(BrokerConnection.connect(List.of(URI.create("http://127.0.0.1:9")),
                Duration.ofSeconds(1), Duration.ofSeconds(1))); // never called here
        ConsoleWindow[] window = new ConsoleWindow[1];
        FxToolkit.setupStage(s -> {
            window[0] = new ConsoleWindow(model, actions, AdmissionPreview.UNAVAILABLE, "(no broker: fed by the test)");
            s.setScene(window[0].scene());
            s.setX(0);
            s.setY(0);
            s.show();
            window[0].start();
            window[0].showView(Integer.getInteger("pulse.view", 1));
        });

        long[] updates = {0};
        long[] busyNanos = {0};
        Thread feeder = new Thread(() -> {
            long next = System.nanoTime();
            long i = 0;
            while (!Thread.currentThread().isInterrupted()) {
                long at = System.currentTimeMillis();
                long t0 = System.nanoTime();
                List<Flow> flows = new ArrayList<>(FLOWS);
                for (int f = 0; f < FLOWS; f++) {
                    long demand = 2_000 + (i * 7 + f * 13) % 3_000;
                    flows.add(new Flow("r" + f % 10, f, 1, f, "r" + (f % 10 + 1) % 10, "HRT", 4_000, 8_000, List.of(16_666_667L),
                            new FlowStatistics(at, i * 60, i * 6_000, i / 50, i / 80, f % 5, demand, demand, demand,
                                    demand > 4_000 ? "CONGESTED" : "STABLE", 4_000, 0, 0, 50 + (i + f) % 900, i / 100)));
                }
                model.replaceFlows(flows, at);
                model.connection(new ConnectionState(ConnectionState.Kind.LIVE, at, "test", ""));
                busyNanos[0] += System.nanoTime() - t0;
                updates[0] = ++i;
                next += UPDATE_PERIOD_MILLIS * 1_000_000L;
                long sleep = next - System.nanoTime();
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "test-feeder");
        feeder.setDaemon(true);
        feeder.start();
        try {
            Thread.sleep(WARM_UP_MILLIS);
            PulseMeter meter = window[0].pulse().meter();
            WaitForAsyncUtils.asyncFx(meter::reset).get();
            long updatesBefore = updates[0];
            long busyBefore = busyNanos[0];
            long pulsesBefore = meter.pulses();
            long framesBefore = meter.frames();
            Thread.sleep(MEASURE_MILLIS);
            long u = updates[0] - updatesBefore;
            long p = meter.pulses() - pulsesBefore;
            long fr = meter.frames() - framesBefore;
            int rowsShown = WaitForAsyncUtils.asyncFx(() -> window[0].flows().flows().shownRows().size()).get();
            String figures = String.format(Locale.ROOT, "flows %d, updates of all of them %d in %.1f s (%.0f /s, %,d flow updates /s)%n"
                            + "frames %d (%.0f /s), pulses %d (%.1f /s)%n"
                            + "longest gap between frames %.1f ms, longest pulse (repaint) %.1f ms, longest gap between pulses %.1f ms%n"
                            + "oldest figure shown by any pulse %d ms old; rows shown %d; the feeder thread busy %.1f ms per update%n",
                    FLOWS, u, MEASURE_MILLIS / 1000.0, u * 1000.0 / MEASURE_MILLIS, u * FLOWS * 1000 / MEASURE_MILLIS,
                    fr, fr * 1000.0 / MEASURE_MILLIS, p, p * 1000.0 / MEASURE_MILLIS,
                    meter.longestFrameGapNanos() / 1e6, meter.longestPulseNanos() / 1e6,
                    meter.longestPulseGapNanos() / 1e6, meter.oldestShownMillis(), rowsShown,
                    (busyNanos[0] - busyBefore) / 1e6 / Math.max(1, u));
            System.out.print(figures);
            Files.createDirectories(Screenshots.FOLDER.getParent());
            Files.writeString(Screenshots.FOLDER.getParent().resolve("pulse-figures.txt"), figures);
            Screenshots.saveEachView(window[0], "underLoad");

            assertTrue(p > 0, "the pulse ran");
            assertEquals(FLOWS, rowsShown, "every flow shown");
            assertTrue(meter.oldestShownMillis() <= 1_000, "a figure shown was " + meter.oldestShownMillis()
                    + " ms old by the model's receipt times");
        } finally {
            feeder.interrupt();
            feeder.join(2000);
            FxToolkit.setupFixture(() -> window[0].stop());
            actions.close();
        }
    }
}
