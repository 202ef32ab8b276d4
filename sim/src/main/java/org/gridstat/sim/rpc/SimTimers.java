package org.gridstat.sim.rpc;

import org.gridstat.rpc.transport.Timers;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.engine.EventLoop;

/**
 * The RPC layer's clock and timers on simulated time: the monotonic clock is the event loop's, the
 * epoch clock the one every simulated host shares ({@link Simulation#EPOCH_BASE} at time 0), and
 * a timer is an action on the loop, so the endpoints, client and server run in its one thread.
 */
public final class SimTimers implements Timers {
    private final EventLoop loop;

    public SimTimers(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public long nowNanos() {
        return loop.now();
    }

    @Override
    public long epochNanos() {
        return Simulation.EPOCH_BASE + loop.now();
    }

    @Override
    public Cancellable after(long delayNanos, Runnable task) {
        EventLoop.Timer t = loop.after(delayNanos, task);
        return t::cancel;
    }
}
