package org.gridstat.gui.view;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.collections.ListChangeListener;
import org.gridstat.gui.feed.ConnectionState;
import org.gridstat.gui.model.Alarm;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.Stamped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The alarms the operator selected stay selected when the broker's alarms change, selected again
 * at once (TestFX, headless): a row at a time, 2,000 selected alarms (Ctrl+A, then Acknowledge
 * selected) took the UI thread for a few hundred milliseconds at every pulse in which an alarm's
 * count moved, as noise alarms' do all the time.
 */
@Timeout(60)
class AlarmsViewSelectionTest {
    private static List<Alarm> alarms(int round) {
        List<Alarm> out = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            out.add(new Alarm("10.0.0." + i % 250, "MALFORMED_FRAME", "INFO", "frame " + i, "frame " + i, 1 + round,
                    Instant.ofEpochSecond(1_000), Instant.ofEpochSecond(1_000 + round), i % 2 == 0));
        }
        return out;
    }

    @Test
    void twoThousandSelectedAlarmsAreSelectedAgainAtOnceWhenTheyChange() throws Exception {
        FxToolkit.registerPrimaryStage();
        AlarmLatch latch = new AlarmLatch();
        AlarmsView[] view = new AlarmsView[1];
        FxToolkit.setupStage(s -> {
            view[0] = new AlarmsView(latch);
            s.setScene(new javafx.scene.Scene(view[0].node(), 1200, 800));
            s.show();
        });
        show(view[0], latch, 1);
        fx(() -> {
            view[0].table().getSelectionModel().selectAll();
            return null;
        });
        AtomicInteger changes = new AtomicInteger();
        fx(() -> {
            view[0].table().getSelectionModel().getSelectedIndices()
                    .addListener((ListChangeListener<Integer>) c -> changes.incrementAndGet());
            return null;
        });
        show(view[0], latch, 2); // every count moved
        assertEquals(2_000, (int) fx(() -> view[0].table().getSelectionModel().getSelectedItems().size()),
                "the selection is kept");
        assertTrue(changes.get() <= 4, "selected again in one change, not row by row: " + changes.get() + " changes");
        FxToolkit.cleanupStages();
    }

    private static void show(AlarmsView view, AlarmLatch latch, int round) throws Exception {
        List<Alarm> a = alarms(round);
        ConsoleSnapshot s = new ConsoleSnapshot(round, 1_000, new ConnectionState(ConnectionState.Kind.LIVE, 1, "b", ""),
                null, null, null, null, null, null, List.of(), new Stamped<>(a, 1), null, 1);
        fx(() -> {
            latch.update(a);
            view.show(s, true);
            return null;
        });
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
