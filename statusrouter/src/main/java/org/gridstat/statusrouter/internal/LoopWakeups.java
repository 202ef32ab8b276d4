package org.gridstat.statusrouter.internal;

import io.netty.channel.EventLoop;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.egress.WakeupService;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.Saturating;

/**
 * The data-path agent's wake-ups on a Netty event loop. Netty's timers cannot be re-armed, so a
 * one-shot timer per departure would allocate a task per event on a saturated link. Wake-ups due
 * within {@link #TICK_HORIZON_NANOS} are therefore served by a periodic tick, started once per
 * pacing episode and kept for {@link #LINGER_TICKS} idle ticks, so bursts a few milliseconds
 * apart share one; a wake-up runs at most one tick late. Later wake-ups (slow links, estimator
 * periods) take one-shot timers. Times are compared with saturating arithmetic, so monotonic
 * readings anywhere in {@code long} (the origin of {@code System.nanoTime} is arbitrary) cannot
 * wrap a far wake-up into "due now" or a past one into "never". Confined to the event loop.
 */
final class LoopWakeups implements WakeupService, AutoCloseable {
    static final long TICK_HORIZON_NANOS = 2_000_000;
    /** The tick's period: a paced event leaves at most this much after the scheduler allows it. */
    static final long TICK_NANOS = 50_000;
    /** Idle ticks before the tick stops (10 ms). */
    static final int LINGER_TICKS = 200;

    private final EventLoop loop;
    private final NanoClock clock;
    private final Runnable cycle;
    private final Runnable tickTask = this::onTick;
    private final Runnable timerTask = this::onTimer;
    private long wanted = Long.MAX_VALUE;
    private ScheduledFuture<?> ticker;
    private int idleTicks;
    private ScheduledFuture<?> timer;
    private long timerAt = Long.MAX_VALUE;
    private boolean closed;

    /** @param cycle runs one duty cycle of the agent (which asks for its next wake-up again) */
    LoopWakeups(EventLoop loop, NanoClock clock, Runnable cycle) {
        this.loop = loop;
        this.clock = clock;
        this.cycle = cycle;
    }

    @Override
    public void wakeAt(long monoNanos) {
        wanted = monoNanos;
        if (monoNanos == Long.MAX_VALUE || closed) {
            return;
        }
        long now = clock.nanoTime();
        long wait = Saturating.subtract(monoNanos, now); // clamped: a far wake-up is never "due now", nor a past one "never"
        if (wait <= 0) {
            loop.execute(cycle); // rare: more commands queued than one cycle takes
        } else if (wait <= TICK_HORIZON_NANOS) {
            idleTicks = 0;
            if (ticker == null) {
                ticker = loop.scheduleAtFixedRate(tickTask, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
            }
        } else if (timer == null || timerAt > monoNanos) {
            if (timer != null) {
                timer.cancel(false);
            }
            timerAt = monoNanos;
            timer = loop.schedule(timerTask, wait, TimeUnit.NANOSECONDS);
        }
    }

    private void onTick() {
        long now = clock.nanoTime();
        if (wanted <= now) {
            wanted = Long.MAX_VALUE;
            cycle.run(); // asks for the next wake-up
        }
        if (Saturating.subtract(wanted, now) > TICK_HORIZON_NANOS && ++idleTicks >= LINGER_TICKS && ticker != null) {
            ticker.cancel(false); // the episode is over: nothing near has waited for a while
            ticker = null;
            idleTicks = 0;
        }
    }

    private void onTimer() {
        timer = null;
        timerAt = Long.MAX_VALUE;
        if (wanted <= clock.nanoTime()) {
            wanted = Long.MAX_VALUE;
            cycle.run();
        } else {
            wakeAt(wanted);
        }
    }

    @Override
    public void close() {
        closed = true;
        if (ticker != null) {
            ticker.cancel(false);
        }
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
