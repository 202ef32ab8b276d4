package org.gridstat.gateway.pmusim;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.HeaderFrame;
import org.gridstat.gateway.c37118.data.DataFrameWriter;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.device.ServedStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated PMU stream served over C37.118. A thread of its own waits for each instant of the
 * UTC frame grid, builds that instant's frame (never before its time) and gives it to a
 * {@link PmuServer}, which sends it to the clients that turned data on. If the thread falls
 * behind (a pause of the JVM, an overloaded host) it sends the latest instant and counts the ones
 * it skipped rather than catching up in a burst: a PMU does not send old measurements late.
 */
public final class PmuSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PmuSimulator.class);
    /** STAT bit 10: the configuration will change (set for up to a minute before, by the standard). */
    public static final int CONFIG_CHANGE_BIT = 1 << 10;

    /** A configuration in force: everything the sending thread needs for it, computed once. */
    private record Stream(PmuSimSpec spec, ConfigFrame cfg2, ConfigFrame cfg1, DataLayout layout, FrameClock grid) {
        static Stream of(PmuSimSpec spec) {
            ConfigFrame cfg2 = SimulatedConfig.config2(spec);
            return new Stream(spec, cfg2, SimulatedConfig.config1(cfg2), DataLayout.of(cfg2),
                    new FrameClock(spec.framesPerSecond(), spec.timeBase()));
        }
    }

    /** A change announced and not yet in force. */
    private record Change(Stream next, long atNanos) {
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final AtomicLong framesSent = new AtomicLong();
    private final AtomicLong instantsSkipped = new AtomicLong();
    private final Thread thread;
    private volatile Stream current;
    private volatile Change pending;
    private volatile boolean closed;
    private PmuServer server;

    private PmuSimulator(PmuSimSpec spec, Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.current = Stream.of(spec);
        // the first instant is the one due at the start, not when the thread happens to run
        long first = current.grid.instantAtOrAfter(clock.nanos());
        this.thread = new Thread(() -> run(first), "pmusim-" + spec.streamIdCode());
        thread.setDaemon(true);
    }

    /** Simulates {@code spec} in real time, served as {@code transport} says. */
    public static PmuSimulator start(PmuSimSpec spec, PmuServer.Settings transport) {
        return start(spec, transport, SystemClock.INSTANCE, Sleeper.parking(SystemClock.INSTANCE));
    }

    /** Simulates {@code spec} on the given clock, waiting for each instant with {@code sleeper}. */
    public static PmuSimulator start(PmuSimSpec spec, PmuServer.Settings transport, Clock clock, Sleeper sleeper) {
        PmuSimulator sim = new PmuSimulator(Objects.requireNonNull(spec, "spec"), Objects.requireNonNull(clock, "clock"),
                Objects.requireNonNull(sleeper, "sleeper"));
        sim.server = PmuServer.start(transport, sim.new Served(), clock);
        sim.thread.start();
        LOG.info("simulating stream {}: {} PMUs at {} frames/s", spec.streamIdCode(), spec.pmus().size(), spec.framesPerSecond());
        return sim;
    }

    /** The CFG-2 that describes a simulated stream's data frames. */
    public static ConfigFrame configFor(PmuSimSpec spec) {
        return SimulatedConfig.config2(spec);
    }

    /**
     * The data frame of one instant: a pure function of its arguments, so a test or a receiver can
     * rebuild any frame the simulator sent and compare bytes.
     *
     * @param cfg the CFG-2 the frame follows, normally {@link #configFor}(spec)
     * @param fractionCount the FRACSEC fraction, in 1/TIME_BASE s
     * @param statBits ORed into every PMU's STAT word (0 for all good)
     */
    public static byte[] dataFrame(PmuSimSpec spec, ConfigFrame cfg, long soc, int fractionCount, int statBits) {
        return dataFrame(spec, cfg, DataLayout.of(cfg), soc, fractionCount, statBits);
    }

    private static byte[] dataFrame(PmuSimSpec spec, ConfigFrame cfg, DataLayout layout, long soc, int fraction, int statBits) {
        ByteBuffer b = ByteBuffer.allocate(layout.frameSize());
        DataFrameWriter w = new DataFrameWriter().wrap(layout, b, 0, spec.version(), soc, FracSec.of(0, fraction));
        WaveformGenerator.fill(w, layout, cfg, soc, fraction, statBits);
        w.seal();
        return b.array();
    }

    private void run(long firstInstant) {
        Stream s = current;
        long instant = firstInstant;
        try {
            while (!closed) {
                Stream now = current;
                if (now != s) {
                    // A new configuration may have another rate: the same moment on its grid.
                    instant = now.grid.instantAtOrAfter(s.grid.nanosOf(instant));
                    s = now;
                }
                long due = s.grid.nanosOf(instant);
                sleeper.sleepUntil(due);
                if (closed) {
                    return;
                }
                long latest = s.grid.instantAtOrBefore(clock.nanos());
                if (latest > instant) {
                    instantsSkipped.addAndGet(latest - instant);
                    instant = latest;
                    due = s.grid.nanosOf(instant);
                }
                Change c = pending;
                if (c != null && due >= c.atNanos) {
                    takeEffect(c);
                    continue;
                }
                int stat = c != null ? CONFIG_CHANGE_BIT : 0;
                byte[] frame = dataFrame(s.spec, s.cfg2, s.layout, s.grid.soc(instant), s.grid.fraction(instant), stat);
                framesSent.incrementAndGet();
                server.send(ByteBuffer.wrap(frame));
                instant++;
            }
        } catch (InterruptedException e) {
            if (!closed) {
                LOG.warn("simulator thread interrupted: stopped sending");
            }
        } catch (RuntimeException e) {
            LOG.error("simulator thread failed: stopped sending", e);
        }
    }

    private synchronized void takeEffect(Change c) {
        if (pending == c) {
            current = c.next;
            pending = null;
            LOG.info("stream {}: configuration {} in force", c.next.spec.streamIdCode(), c.next.spec.configCount());
        }
    }

    /**
     * Announces a configuration change: every PMU's STAT carries bit 10 for {@code advance}, then
     * {@code next} takes effect (its CFG-2, with its CFGCNT, is served and its frames sent). With a
     * zero advance the change is at once. A change announced while another is pending replaces it.
     */
    public synchronized void announceChange(PmuSimSpec next, Duration advance) {
        Objects.requireNonNull(next, "next");
        if (advance.isNegative()) {
            throw new IllegalArgumentException("advance must not be negative: " + advance);
        }
        Change c = new Change(Stream.of(next), clock.nanos() + advance.toNanos());
        pending = c;
        if (advance.isZero()) {
            takeEffect(c);
        }
    }

    /** The CFG-2 being served now. */
    public ConfigFrame config2() {
        return current.cfg2;
    }

    public PmuSimSpec spec() {
        return current.spec;
    }

    /** Data frames given to the server. */
    public long framesSent() {
        return framesSent.get();
    }

    /** Grid instants passed over because the thread woke too late for them. */
    public long instantsSkipped() {
        return instantsSkipped.get();
    }

    public PmuServer server() {
        return server;
    }

    /** Stops the sending thread and the server. Idempotent. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.close();
    }

    /** What the server answers commands with: the configuration in force at the moment. */
    private final class Served implements ServedStream {
        @Override
        public int idCode() {
            return current.spec.streamIdCode();
        }

        @Override
        public ConfigFrame config1() {
            return current.cfg1;
        }

        @Override
        public ConfigFrame config2() {
            return current.cfg2;
        }

        @Override
        public HeaderFrame header() {
            Stream s = current;
            return new HeaderFrame(s.spec.version(), s.spec.streamIdCode(), 0, 0, "GridStat PMU simulator: "
                    + s.spec.pmus().size() + " PMUs at " + s.spec.framesPerSecond() + " frames/s, configuration "
                    + s.spec.configCount());
        }
    }
}
