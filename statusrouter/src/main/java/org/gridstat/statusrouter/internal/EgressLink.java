package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.gridstat.core.emulation.LinkEmulator;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.stats.CounterArray;
import org.gridstat.core.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One out-link's sending side: a UDP channel connected to the neighbour, drained from the link's
 * scheduler as fast as the scheduler allows, in batches flushed together (sendmmsg under epoll),
 * woken by event-loop timers when pacing holds events back (a periodic tick for short waits), and
 * paused while the socket's buffer is full so memory stays bounded by the scheduler's buffers. With emulation on, each
 * packet passes the {@link LinkEmulator} and waits in a bounded delay line for its arrival time.
 * Runs on the data-path event loop only.
 */
final class EgressLink extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EgressLink.class);
    private static final int DELAY_LINE = 65_536;
    /**
     * Pacing waits up to this long are served by a periodic tick, started once per pacing episode
     * and re-used for every departure in it; Netty's one-shot timers cannot be re-armed, so waking
     * a saturated link by one-shot timers would allocate a timer task per departure. Longer waits
     * (slow links, a few departures a second) use one-shot timers.
     */
    static final long PACING_TICK_HORIZON_NANOS = 2_000_000;
    /** The tick's period: a paced event leaves at most this much after the scheduler allows it. */
    static final long PACING_TICK_NANOS = 50_000;
    /**
     * Idle ticks before the tick stops (10 ms): a link that empties between bursts a few
     * milliseconds apart keeps its tick rather than starting a new one, a new task, per burst.
     */
    static final int PACING_TICK_LINGER = 200;

    static final int SENT = 0;
    static final int SEND_ERRORS = 1;
    static final int EMULATION_LOST = 2;
    static final int DELAY_LINE_FULL = 3;

    final OutLinkConfig config;
    private final int index;
    private final ForwardingEngine<ByteBuf> engine;
    private final Clock clock;
    private final LinkEmulator emulator;
    private final CounterArray counters = new CounterArray(4);
    private final Runnable drainTask = this::onTimer;
    private final Runnable tickTask = this::onTick;
    private ScheduledFuture<?> ticker;
    private long tickWake = Long.MAX_VALUE;
    private int idleTicks;
    private final Runnable delayTask = this::onDelayTimer;
    private Channel channel;
    private EventLoop loop;
    private ScheduledFuture<?> timer;
    private long timerAt = Long.MAX_VALUE;

    // Delay line: packets and their arrival times, in order (the delay is constant).
    private final ByteBuf[] delayed;
    private final long[] due;
    private int delayHead;
    private int delayCount;
    private ScheduledFuture<?> delayTimer;

    EgressLink(OutLinkConfig config, int index, ForwardingEngine<ByteBuf> engine, Clock clock) {
        this.config = config;
        this.index = index;
        this.engine = engine;
        this.clock = clock;
        EmulationConfig e = config.emulation;
        this.emulator = e.active()
                ? new LinkEmulator(e.delayNanos, e.loss, e.meanTimeBetweenFaultsNanos, e.faultDurationNanos, e.seed, clock.nanos())
                : null;
        boolean delays = emulator != null && e.delayNanos > 0;
        this.delayed = delays ? new ByteBuf[DELAY_LINE] : null;
        this.due = delays ? new long[DELAY_LINE] : null;
    }

    void attach(Channel channel) {
        this.channel = channel;
        this.loop = channel.eventLoop();
    }

    /** Sends what the scheduler lets go now; arms the pacing timer for the rest. */
    void drain() {
        if (channel == null || !channel.isActive()) {
            return;
        }
        long now = clock.nanos();
        boolean wrote = false;
        ByteBuf event;
        while (channel.isWritable() && (event = engine.dequeue(index, now)) != null) {
            wrote |= emit(event, now);
        }
        if (wrote) {
            channel.flush();
        }
        if (channel.isWritable()) {
            armTimer(engine.nextWakeNanos(index, now), now);
        }
    }

    private boolean emit(ByteBuf event, long now) {
        if (emulator == null) {
            write(event);
            return true;
        }
        long arrival = emulator.transmit(now);
        if (arrival == LinkEmulator.LOST) {
            counters.increment(EMULATION_LOST);
            event.release();
            return false;
        }
        if (delayed == null) {
            write(event);
            return true;
        }
        if (delayCount == DELAY_LINE) {
            counters.increment(DELAY_LINE_FULL);
            event.release();
            return false;
        }
        int at = (delayHead + delayCount) & (DELAY_LINE - 1);
        delayed[at] = event;
        due[at] = arrival;
        if (delayCount++ == 0) {
            scheduleDelayTimer(arrival, now);
        }
        return false;
    }

    private void write(ByteBuf event) {
        counters.increment(SENT);
        channel.write(event, channel.voidPromise());
    }

    private void onDelayTimer() {
        delayTimer = null;
        long now = clock.nanos();
        boolean wrote = false;
        while (delayCount > 0 && due[delayHead] <= now) {
            ByteBuf e = delayed[delayHead];
            delayed[delayHead] = null;
            delayHead = (delayHead + 1) & (DELAY_LINE - 1);
            delayCount--;
            write(e);
            wrote = true;
        }
        if (wrote) {
            channel.flush();
        }
        if (delayCount > 0) {
            scheduleDelayTimer(due[delayHead], now);
        }
    }

    private void scheduleDelayTimer(long at, long now) {
        delayTimer = loop.schedule(delayTask, Math.max(0, at - now), TimeUnit.NANOSECONDS);
    }

    private void armTimer(long wake, long now) {
        if (wake == Long.MAX_VALUE) {
            return;
        }
        if (wake - now <= PACING_TICK_HORIZON_NANOS) {
            tickWake = Math.min(tickWake, wake);
            if (ticker == null) {
                ticker = loop.scheduleAtFixedRate(tickTask, PACING_TICK_NANOS, PACING_TICK_NANOS, TimeUnit.NANOSECONDS);
            }
            return;
        }
        if (timer != null && timerAt <= wake) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerAt = wake;
        timer = loop.schedule(drainTask, Math.max(0, wake - now), TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        timerAt = Long.MAX_VALUE;
        drain();
    }

    private void onTick() {
        if (tickWake <= clock.nanos()) {
            tickWake = Long.MAX_VALUE;
            drain(); // arms the next near wake, if any
        }
        if (tickWake != Long.MAX_VALUE) {
            idleTicks = 0;
        } else if (++idleTicks >= PACING_TICK_LINGER && ticker != null) {
            ticker.cancel(false); // the episode is over: nothing near has waited for a while
            ticker = null;
            idleTicks = 0;
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            drain();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Send failures (a neighbour's port closed) surface here; count them, keep the link. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.increment(SEND_ERRORS);
        LOG.debug("link {}: {}", config.name, cause.toString());
    }

    long sent() {
        return counters.get(SENT);
    }

    long sendErrors() {
        return counters.get(SEND_ERRORS);
    }

    long emulationLost() {
        return counters.get(EMULATION_LOST) + counters.get(DELAY_LINE_FULL);
    }

    /** Releases what waits in the delay line; called when the link closes. */
    void discard() {
        while (delayCount > 0) {
            delayed[delayHead].release();
            delayed[delayHead] = null;
            delayHead = (delayHead + 1) & (DELAY_LINE - 1);
            delayCount--;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        if (ticker != null) {
            ticker.cancel(false);
        }
        if (delayTimer != null) {
            delayTimer.cancel(false);
        }
    }
}
