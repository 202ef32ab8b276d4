package org.gridstat.gateway.ingest;

import java.nio.ByteBuffer;
import org.gridstat.core.sched.TokenBucket;
import org.gridstat.core.time.Clock;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.c37118.data.StatWord;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's side of a C37.118 session with one device (the PDC client), as pure logic: the
 * transport hands it frames and connection events with the monotonic time, and it answers with
 * commands, restarts and what to publish. One thread at a time; no I/O, so tests step it on a
 * manual clock.
 *
 * <p>On each (re)connection it sends DATA_OFF and asks for CFG-2; when the configuration comes it
 * turns data on. A data frame that no longer fits the configuration, or that carries a STAT
 * configuration-change bit, makes it ask again (at most once per configuration timeout) while the
 * frames that still fit keep flowing; a CFG-2 that differs from the one in force replaces it, at
 * most once a second (faster changes are refused and counted), and only once the sink has taken it.
 * Unanswered requests are repeated three times, then the session starts over; so does a data
 * silence of the data timeout. Each start-over waits a back-off that doubles up to its maximum and
 * resets once a data frame is accepted. Spontaneous devices get no commands: their periodic CFG-2
 * is awaited.
 *
 * <p>Frames are untrusted: a data frame is accepted only under the configuration in force, within
 * the device's frame-rate limit, stamped within the time window around the gateway's epoch clock,
 * and later than the previous one (three backward frames in a row are taken as a clock step of the
 * device and accepted from then on).
 */
public final class DeviceSession {
    /** What the session asks of its transport. */
    public interface Link {
        /** Sends a command frame to the device. */
        void send(byte[] command);

        /** Ends the connection (or the UDP session); the transport then reports {@link #disconnected} and connects again after the wait it returns. */
        void restart();
    }

    /** Where accepted configurations and data go. */
    public interface Sink {
        /** A configuration took effect: the first one, or one that replaces another. */
        void configuration(ConfigFrame config);

        /** A data frame under the configuration in force; the reader is valid during this call only. */
        void data(DataFrameReader frame);
    }

    private static final int MAX_UNANSWERED_REQUESTS = 3;
    private static final int BACKWARD_FRAMES_FOR_A_STEP = 3;
    /** The fastest a device's configuration is followed: one change a second. */
    static final long MIN_CHANGE_INTERVAL_NANOS = 1_000_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger(DeviceSession.class);

    private final DeviceSettings settings;
    private final Clock epoch;
    private final Link link;
    private final Sink sink;
    private final DeviceCounters counters;
    private final ConfigFrameCodec configCodec = new ConfigFrameCodec();
    private final DataFrameReader reader = new DataFrameReader();
    /** Data frames a second the device may send, in frames: a flood loses its excess. */
    private TokenBucket guard;

    private DeviceState state = DeviceState.DISCONNECTED;
    private ConfigFrame config;
    private DataLayout layout;
    private int version = CommonHeader.VERSION_2005;
    private long backoff;
    private long configDeadline = Long.MAX_VALUE;
    private long dataDeadline = Long.MAX_VALUE;
    private long lastRequest = Long.MIN_VALUE;
    private long lastChange = Long.MIN_VALUE / 2;
    private int unanswered;
    private long lastFrameTime = Long.MIN_VALUE;
    private int backward;

    public DeviceSession(DeviceSettings settings, Clock epoch, Link link, Sink sink, DeviceCounters counters) {
        this.settings = settings;
        this.epoch = epoch;
        this.link = link;
        this.sink = sink;
        this.counters = counters;
        this.backoff = settings.reconnectMin().toNanos();
    }

    public DeviceState state() {
        return state;
    }

    /** The configuration in force, or null. */
    public ConfigFrame config() {
        return config;
    }

    /** The transport opens a TCP connection now. */
    public void connecting() {
        setState(DeviceState.CONNECTING);
    }

    /** The transport is connected (TCP) or its socket is ready (UDP). */
    public void connected(long now) {
        counters.add(DeviceCounter.CONNECTS);
        unanswered = 0;
        dataDeadline = now + settings.dataTimeout().toNanos();
        if (!settings.transport().commands()) {
            setState(config == null ? DeviceState.AWAITING_CONFIG : DeviceState.STREAMING);
            configDeadline = Long.MAX_VALUE;
            return;
        }
        setState(DeviceState.AWAITING_CONFIG);
        command(CommandFrame.DATA_OFF);
        requestConfig(now);
    }

    /**
     * The connection was lost, could not be made, or was ended by {@link Link#restart}; returns how
     * long to wait before the next attempt. The wait doubles with each loss, up to its maximum, and
     * is back at its minimum once a data frame is accepted.
     */
    public long disconnected(long now) {
        if (state != DeviceState.DISCONNECTED) {
            counters.add(DeviceCounter.DISCONNECTS);
        }
        setState(DeviceState.DISCONNECTED);
        configDeadline = Long.MAX_VALUE;
        dataDeadline = Long.MAX_VALUE;
        long wait = backoff;
        backoff = Math.min(settings.reconnectMax().toNanos(), backoff * 2);
        return wait;
    }

    /** Runs the timers; returns the monotonic time at which to call again. */
    public long poll(long now) {
        if (state == DeviceState.AWAITING_CONFIG && now >= configDeadline) {
            if (unanswered >= MAX_UNANSWERED_REQUESTS) {
                startOver();
            } else {
                requestConfig(now);
            }
        } else if (state == DeviceState.STREAMING && now >= dataDeadline) {
            counters.add(DeviceCounter.DATA_TIMEOUTS);
            if (settings.transport().commands()) {
                startOver();
            } else {
                dataDeadline = now + settings.dataTimeout().toNanos();
                setState(DeviceState.AWAITING_CONFIG); // stale until it sends again; the configuration stays
            }
        }
        return nextDeadline();
    }

    public long nextDeadline() {
        return switch (state) {
            case AWAITING_CONFIG -> settings.transport().commands() ? configDeadline : Long.MAX_VALUE;
            case STREAMING -> dataDeadline;
            default -> Long.MAX_VALUE;
        };
    }

    /** A whole, checked frame from the device (the framer's or a datagram's bytes, valid during the call). */
    public void frame(FrameType type, ByteBuffer b, int offset, int length, long now) {
        switch (type) {
            case DATA -> data(b, offset, length, now);
            case CONFIG_2 -> configuration(b, offset, length, now);
            case HEADER -> counters.add(DeviceCounter.HEADER_FRAMES);
            default -> counters.add(DeviceCounter.OTHER_FRAMES);
        }
    }

    /** Bytes the framer refused. */
    public void rejected(FrameReject reason) {
        counters.reject(reason);
    }

    private void configuration(ByteBuffer b, int offset, int length, long now) {
        Decoded<ConfigFrame> d = configCodec.decode(b, offset, length);
        if (!d.ok() || d.frame().idCode() != settings.idCode() || d.frame().pmus().isEmpty()) {
            counters.add(DeviceCounter.CONFIG_REFUSED);
            return;
        }
        ConfigFrame c = d.frame();
        DataLayout l;
        try {
            l = DataLayout.of(c);
        } catch (IllegalArgumentException e) {
            counters.add(DeviceCounter.CONFIG_REFUSED);
            return;
        }
        if (!sameShape(config, c)) {
            if (config != null && now - lastChange < MIN_CHANGE_INTERVAL_NANOS) {
                // a device that changes its configuration faster than this is refused, not followed:
                // each change costs a reconfiguration and declarations downstream
                counters.add(DeviceCounter.CONFIG_CHURN);
                return;
            }
            try {
                sink.configuration(c);
            } catch (RuntimeException e) {
                // what cannot be published is not taken: the data that follows counts as without one
                counters.add(DeviceCounter.CONFIG_REFUSED);
                LOG.error("device {}: configuration {} not taken: {}", settings.name(), firstConfigCount(c), e.getMessage());
                config = null;
                layout = null;
                return;
            }
            if (config != null) {
                counters.add(DeviceCounter.CONFIG_CHANGES);
            }
            lastChange = now;
            config = c;
            layout = l;
            counters.configuration(firstConfigCount(c), c.pmus().size(), c.dataRate());
            int rate = settings.maxFrameRate() > 0 ? settings.maxFrameRate()
                    : Math.max(10, 2 * framesPerSecond(c.dataRate()));
            // a burst of half a second's frames, at least 5: the last may leave the bucket in debt
            guard = new TokenBucket(rate, Math.max(5, rate / 2) - 1, now);
        }
        counters.add(DeviceCounter.CONFIG_FRAMES);
        version = c.version();
        unanswered = 0;
        lastRequest = Long.MIN_VALUE; // answered: a change announced from now on may ask at once
        configDeadline = Long.MAX_VALUE;
        if (state == DeviceState.AWAITING_CONFIG) {
            if (settings.transport().commands()) {
                command(CommandFrame.DATA_ON);
            }
            setState(DeviceState.STREAMING);
            dataDeadline = now + settings.dataTimeout().toNanos();
        }
    }

    private void data(ByteBuffer b, int offset, int length, long now) {
        if (layout == null) {
            counters.add(DeviceCounter.DATA_WITHOUT_CONFIG);
            return;
        }
        FrameReject r = reader.wrap(layout, b, offset, length);
        if (r == FrameReject.UNKNOWN_IDCODE || r == FrameReject.LENGTH_MISMATCH) {
            counters.add(DeviceCounter.DATA_MISMATCH);
            askAgain(now);
            return;
        }
        if (r != FrameReject.NONE) {
            counters.reject(r);
            return;
        }
        guard.advance(now);
        if (guard.inDebt()) {
            counters.add(DeviceCounter.DATA_FLOOD);
            return;
        }
        guard.charge(1);
        long time = reader.soc() * 1_000_000_000L + reader.fractionNanos();
        long clock = epoch.nanos();
        if (time - clock > settings.maxFutureNanos()) {
            counters.add(DeviceCounter.DATA_FUTURE);
            return;
        }
        if (clock - time > settings.maxAgeNanos()) {
            counters.add(DeviceCounter.DATA_STALE);
            return;
        }
        if (time <= lastFrameTime && ++backward < BACKWARD_FRAMES_FOR_A_STEP) {
            counters.add(DeviceCounter.DATA_REPEATED);
            return;
        }
        backward = 0;
        lastFrameTime = time;
        int statOr = 0;
        boolean change = false;
        for (int p = 0; p < reader.pmuCount(); p++) {
            int stat = reader.stat(p);
            statOr |= stat;
            if (StatWord.dataError(stat) != 0) {
                counters.add(DeviceCounter.STAT_DATA_ERROR);
            }
            if (StatWord.syncError(stat)) {
                counters.add(DeviceCounter.STAT_SYNC_ERROR);
            }
            change |= StatWord.configChange(stat);
        }
        if (change) {
            counters.add(DeviceCounter.STAT_CONFIG_CHANGE);
            askAgain(now);
        }
        counters.lastData(statOr, FracSec.timeQuality(reader.fracSec()), clock);
        counters.add(DeviceCounter.DATA_FRAMES);
        dataDeadline = now + settings.dataTimeout().toNanos();
        backoff = settings.reconnectMin().toNanos();
        sink.data(reader);
    }

    /** Asks for the configuration again, at most once per configuration timeout. */
    private void askAgain(long now) {
        if (settings.transport().commands()
                && (lastRequest == Long.MIN_VALUE || now - lastRequest >= settings.configTimeout().toNanos())) {
            requestConfig(now);
        }
    }

    private void requestConfig(long now) {
        command(CommandFrame.SEND_CONFIG_2);
        counters.add(DeviceCounter.CONFIG_REQUESTS);
        lastRequest = now;
        unanswered++;
        configDeadline = now + settings.configTimeout().toNanos();
    }

    /** Ends the session; the transport reports the end through {@link #disconnected}. */
    private void startOver() {
        link.restart();
    }

    private void command(int code) {
        long soc = Math.floorDiv(epoch.nanos(), 1_000_000_000L);
        link.send(CommandFrameCodec.encode(new CommandFrame(version, settings.idCode(), soc, 0, code)));
    }

    private void setState(DeviceState s) {
        state = s;
        counters.state(s);
    }

    /** Whether two configurations describe the same frames and channels (their time stamps aside). */
    static boolean sameShape(ConfigFrame a, ConfigFrame b) {
        return a != null && a.version() == b.version() && a.idCode() == b.idCode() && a.timeBase() == b.timeBase()
                && a.dataRate() == b.dataRate() && a.pmus().equals(b.pmus());
    }

    private static int firstConfigCount(ConfigFrame c) {
        return c.pmus().get(0).configCount();
    }

    /** DATA_RATE as frames per second; a negative rate (seconds per frame) is under one. */
    static int framesPerSecond(int dataRate) {
        return dataRate > 0 ? dataRate : 1;
    }
}
