package org.gridstat.broker;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/** An executor whose tasks wait until the test runs them, on the test's thread. */
final class HeldExecutor extends AbstractExecutorService {
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    private boolean shutdown;

    @Override
    public synchronized void execute(Runnable task) {
        held.add(task);
    }

    synchronized int size() {
        return held.size();
    }

    /** Runs what is held, and what those tasks add, until nothing is left. */
    void runAll() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = held.poll();
            }
            if (next == null) {
                return;
            }
            next.run();
        }
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = List.copyOf(held);
        held.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }
}
