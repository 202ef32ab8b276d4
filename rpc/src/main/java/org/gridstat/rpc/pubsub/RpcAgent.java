package org.gridstat.rpc.pubsub;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.rpc.transport.Timers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that runs Ratatoskr on real status routers: 2WoPS endpoints, RPC clients and
 * servers, and their {@link Timers}. The protocol objects are single-threaded logic, so everything
 * that touches them comes here as a command: frames received by subscriber threads
 * ({@link #offer}), the application's calls ({@link #execute}, {@link #submit}).
 *
 * <p>One duty cycle, as an Aeron agent has: read the clocks once, run the timers due, run up to
 * {@link #COMMANDS_PER_CYCLE} queued commands; with nothing done, park until the next timer is due
 * or a command is queued. {@link #nowNanos()} and {@link #epochNanos()} are the cycle's readings,
 * so every decision of one cycle sees one time.
 *
 * <p>The command queue is bounded. A network thread must never block on a busy protocol thread
 * (the frames behind it would be lost in the socket instead, uncounted): a frame {@link #offer}ed
 * to a full queue is dropped and counted in {@link #dropped()}, as any loss the 2WoPS retries
 * recover from. The application's {@link #execute} is refused with a
 * {@link RejectedExecutionException} instead, which it can act on. A task that throws is logged
 * (the first) and counted; the thread goes on.
 */
public final class RpcAgent implements Timers, Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RpcAgent.class);

    /** The command queue's default bound: 50 ms of frames at 80,000 frames/s. */
    public static final int DEFAULT_QUEUE_CAPACITY = 4096;
    /**
     * Timers set at most: one connection's 1,024 unacknowledged messages with 16 copies each and
     * their timeouts need about 17,500; the rest is room for clients, servers and more connections.
     */
    public static final int MAX_TIMERS = 131_072;
    /** Commands run per cycle at most, so a flood of frames cannot hold back the timers due. */
    public static final int COMMANDS_PER_CYCLE = 256;
    /** The longest park: the thread looks at its state at least this often. */
    private static final long MAX_PARK_NANOS = 100_000_000L;
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    private final ArrayBlockingQueue<Runnable> commands;
    private final TimerQueue timers = new TimerQueue(MAX_TIMERS);
    private final Clock epochClock;
    private final Thread thread;
    private volatile boolean running = true;
    /** Set while the thread parks, so producers wake it only then. */
    private volatile boolean parked;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong commandsRun = new AtomicLong();
    private final AtomicLong timersRun = new AtomicLong();
    // The cycle's clock readings; written and read by the agent's thread only.
    private long now;
    private long epoch;

    private RpcAgent(String name, int queueCapacity, Clock epochClock) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("the command queue holds at least 1 command, got " + queueCapacity);
        }
        this.commands = new ArrayBlockingQueue<>(queueCapacity);
        this.epochClock = Objects.requireNonNull(epochClock, "epoch clock");
        this.now = System.nanoTime();
        this.epoch = epochClock.nanos();
        this.thread = new Thread(this::run, Objects.requireNonNull(name, "name"));
        this.thread.setDaemon(true);
    }

    /** Starts an agent with a queue of {@link #DEFAULT_QUEUE_CAPACITY} commands and the system clock. */
    public static RpcAgent start(String name) {
        return start(name, DEFAULT_QUEUE_CAPACITY, SystemClock.INSTANCE);
    }

    /**
     * Starts an agent.
     *
     * @param queueCapacity commands queued at most (frames and application tasks together)
     * @param epochClock    the epoch clock of deadlines and source times
     */
    public static RpcAgent start(String name, int queueCapacity, Clock epochClock) {
        RpcAgent a = new RpcAgent(name, queueCapacity, epochClock);
        a.thread.start();
        return a;
    }

    private void run() {
        try {
            while (running) {
                now = System.nanoTime();
                epoch = epochClock.nanos();
                int work = runTimers() + runCommands();
                if (work == 0) {
                    park();
                }
            }
        } finally {
            running = false; // a thread killed by a VirtualMachineError takes no more commands
        }
    }

    private int runTimers() {
        int n = 0;
        Runnable task;
        // Bounded like the commands: a timer that sets a timer due at once cannot spin the cycle.
        while (n < COMMANDS_PER_CYCLE && (task = timers.pollDue(now)) != null) {
            runSafely(task);
            n++;
        }
        timersRun.addAndGet(n);
        return n;
    }

    private int runCommands() {
        int n = 0;
        Runnable command;
        while (n < COMMANDS_PER_CYCLE && (command = commands.poll()) != null) {
            runSafely(command);
            n++;
        }
        commandsRun.addAndGet(n);
        return n;
    }

    private void park() {
        long next = timers.nextAt();
        long wait = next == Long.MAX_VALUE ? MAX_PARK_NANOS : Math.min(MAX_PARK_NANOS, next - now);
        if (wait <= 0) {
            return;
        }
        parked = true;
        // Looked at after announcing the park: a producer that queued before it is seen here, one
        // that queues after it sees the flag and unparks.
        if (commands.isEmpty() && running) {
            LockSupport.parkNanos(this, wait);
        }
        parked = false;
    }

    private void runSafely(Runnable task) {
        try {
            task.run();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            if (failures.getAndIncrement() == 0) {
                LOG.error("a task of RPC agent {} threw; counting further failures", thread.getName(), e);
            }
        }
    }

    private void wake() {
        if (parked) {
            // Unpark, never interrupt: an interrupt would close the publisher's channel mid-send.
            LockSupport.unpark(thread);
        }
    }

    /**
     * Queues a command from a network thread; never blocks.
     *
     * @return false if the queue was full or the agent closed: the command is dropped and counted
     */
    public boolean offer(Runnable command) {
        if (!running || !commands.offer(command)) {
            dropped.incrementAndGet();
            return false;
        }
        wake();
        return true;
    }

    /**
     * Runs {@code command} in the agent's thread, soon.
     *
     * @throws RejectedExecutionException if the queue is full or the agent is closed
     */
    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        if (!running) {
            refused.incrementAndGet();
            throw new RejectedExecutionException("RPC agent " + thread.getName() + " is closed");
        }
        if (!commands.offer(command)) {
            refused.incrementAndGet();
            throw new RejectedExecutionException("RPC agent " + thread.getName() + ": " + commands.size()
                    + " commands queued, the most it holds");
        }
        wake();
    }

    /**
     * Runs {@code task} in the agent's thread and completes the future with its result (completed
     * in that thread: chain blocking work with the {@code ...Async} methods). Called in the agent's
     * thread it runs at once. A full queue or a closed agent fails the future with a
     * {@link RejectedExecutionException}.
     */
    public <T> CompletableFuture<T> submit(Callable<T> task) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                f.complete(task.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        };
        if (inAgentThread()) {
            r.run();
            return f;
        }
        try {
            execute(r);
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    /** Whether the caller is the agent's thread. */
    public boolean inAgentThread() {
        return Thread.currentThread() == thread;
    }

    // --- Timers: the agent's thread only ---------------------------------------------------------

    /** The monotonic clock as read at the start of the current cycle. */
    @Override
    public long nowNanos() {
        return now;
    }

    /** The epoch clock as read at the start of the current cycle. */
    @Override
    public long epochNanos() {
        return epoch;
    }

    /**
     * Runs {@code task} {@code delayNanos} after the current cycle's time, in the agent's thread.
     *
     * @throws IllegalStateException when {@link #MAX_TIMERS} timers are set
     */
    @Override
    public Cancellable after(long delayNanos, Runnable task) {
        return timers.add(now + Math.max(0, delayNanos), Objects.requireNonNull(task, "task"));
    }

    // --- counters ------------------------------------------------------------------------------

    /** Commands from network threads dropped because the queue was full or the agent closed. */
    public long dropped() {
        return dropped.get();
    }

    /** Application tasks refused because the queue was full or the agent closed. */
    public long refused() {
        return refused.get();
    }

    /** Tasks and timers that threw. */
    public long failures() {
        return failures.get();
    }

    public long commandsRun() {
        return commandsRun.get();
    }

    public long timersRun() {
        return timersRun.get();
    }

    /** Commands queued now. */
    public int queued() {
        return commands.size();
    }

    public int queueCapacity() {
        return commands.size() + commands.remainingCapacity();
    }

    public String name() {
        return thread.getName();
    }

    /**
     * Stops the thread after its current cycle and waits for it (up to 5 s; not when called from
     * the agent's own thread). Commands still queued and timers still set are dropped.
     */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        if (!inAgentThread()) {
            try {
                thread.join(CLOSE_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("RPC agent {} did not stop within {} ms", thread.getName(), CLOSE_WAIT_MILLIS);
            }
        }
        commands.clear();
    }

    /** Whether the agent still runs commands. */
    public boolean running() {
        return running && thread.isAlive();
    }

    @Override
    public String toString() {
        return "RpcAgent[" + thread.getName() + "]";
    }
}
