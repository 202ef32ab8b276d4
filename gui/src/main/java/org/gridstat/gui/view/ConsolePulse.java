package org.gridstat.gui.view;

import java.util.List;
import javafx.animation.AnimationTimer;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.model.ConsoleSnapshot;

/**
 * The console's heartbeat on the FX thread: every frame it notes the time (for the
 * {@link PulseMeter}); four times a second it takes one snapshot of the model and hands it to every
 * view. Updates from the feed never reach the FX thread otherwise, however many there are.
 */
public final class ConsolePulse extends AnimationTimer {
    /** 4 Hz: live to the eye, and little work for the FX thread. */
    public static final long PERIOD_NANOS = 250_000_000L;
    private final ConsoleModel model;
    private final AlarmLatch latch;
    private final List<PulseView> views;
    private final PulseMeter meter = new PulseMeter();
    private long lastPulse;
    private long lastVersion = -1;
    private volatile ConsoleSnapshot shown;

    public ConsolePulse(ConsoleModel model, AlarmLatch latch, List<PulseView> views) {
        this.model = model;
        this.latch = latch;
        this.views = List.copyOf(views);
    }

    @Override
    public void handle(long now) {
        meter.frame(now);
        if (lastPulse != 0 && now - lastPulse < PERIOD_NANOS) {
            return;
        }
        lastPulse = now;
        pulseNow();
    }

    /** Repaints from a fresh snapshot now (the pulse does it; an action's outcome may ask for it too). */
    public void pulseNow() {
        long start = System.nanoTime();
        ConsoleSnapshot s = model.snapshot();
        boolean changed = s.version() != lastVersion;
        lastVersion = s.version();
        if (changed && s.alarms() != null) {
            latch.update(s.alarms().value());
        }
        for (PulseView v : views) {
            v.show(s, changed);
        }
        shown = s;
        long oldest = s.oldestFlowMillis();
        meter.pulse(start, System.nanoTime(), oldest == 0 ? 0 : s.takenAtMillis() - oldest);
    }

    public PulseMeter meter() {
        return meter;
    }

    /** The snapshot the views show now. */
    public ConsoleSnapshot shown() {
        return shown;
    }
}
