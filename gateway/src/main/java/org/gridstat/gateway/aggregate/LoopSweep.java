package org.gridstat.gateway.aggregate;

import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The timers of the connections one event loop runs, in one task on that loop: a timer per
 * connection would cost ten thousand scheduled tasks for ten thousand meters. Every tick it
 * offers paused connections their resumption; every few ticks it checks hello and idle deadlines.
 * Touched only by its loop's thread.
 */
final class LoopSweep {
    static final long TICK_MILLIS = 20;
    private static final int TIMEOUT_EVERY_TICKS = 5;

    private final MeterServer server;
    private final ArrayList<MeterConnection> all = new ArrayList<>();
    private final ArrayList<MeterConnection> paused = new ArrayList<>();
    private int ticks;

    LoopSweep(MeterServer server, EventLoop loop) {
        this.server = server;
        loop.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    void add(MeterConnection c) {
        c.sweepIndex = all.size();
        all.add(c);
    }

    void remove(MeterConnection c) {
        int i = c.sweepIndex;
        if (i < 0) {
            return;
        }
        MeterConnection last = all.remove(all.size() - 1);
        if (last != c) {
            all.set(i, last);
            last.sweepIndex = i;
        }
        c.sweepIndex = -1;
        // a paused connection leaves the paused list at the next tick (resumeIfAllowed says done)
    }

    void paused(MeterConnection c) {
        paused.add(c);
    }

    private void tick() {
        long now = server.mono().nanoTime();
        if (!paused.isEmpty()) {
            int kept = 0;
            // resumeIfAllowed may pause a connection again, which appends to the list: iterate a fixed count
            int n = paused.size();
            for (int i = 0; i < n; i++) {
                MeterConnection c = paused.get(i);
                if (!c.resumeIfAllowed(now)) {
                    paused.set(kept++, c);
                }
            }
            for (int i = n; i < paused.size(); i++) {
                paused.set(kept++, paused.get(i));
            }
            paused.subList(kept, paused.size()).clear();
        }
        if (++ticks % TIMEOUT_EVERY_TICKS == 0) {
            for (int i = all.size() - 1; i >= 0; i--) {
                if (i < all.size()) {
                    all.get(i).checkTimeouts(now);
                }
            }
        }
    }
}
