package org.gridstat.gateway.egress;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.client.StatusEventListener;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.time.NanoClock;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.device.PmuServer;
import org.gridstat.gateway.device.ServedStream;
import org.gridstat.gateway.ingest.VariableNames;
import org.gridstat.gateway.mapping.DescriptionAssembler;
import org.gridstat.gateway.mapping.PartOutcome;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSampleView;
import org.gridstat.gateway.mapping.SampleReject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A C37.118 stream rebuilt from status variables and served downstream: the subscriber's events
 * ({@link #onEvent}) carry each PMU's samples and descriptions; once every PMU's description is
 * known the stream's CFG-2 is their PMUs in the configured order, and a {@link PmuServer} serves
 * it. Samples are aligned by timestamp ({@link FrameAligner}): a frame leaves when every PMU's
 * sample for its time is in, or when the wait window after its first sample ends, the missing
 * PMUs then sent as absent data ({@link AbsentData}). Each present PMU's block is the source's,
 * byte for byte.
 *
 * <p>Threads: events arrive on the subscriber's thread, the wait windows end on the stream's own
 * timer thread; both work under the stream's lock. Sending never blocks (the server drops frames
 * for a client that does not keep up, and counts them).
 */
public final class EgressStream implements StatusEventListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EgressStream.class);
    private static final int HORIZON_SECONDS = 2;
    private static final long RESYNC_NANOS = 5_000_000_000L;

    private final EgressSettings settings;
    private final NanoClock mono;
    /** Each slot's variable ids, searched in order: a stream has few PMUs, and a boxed map key per event would allocate. */
    private final long[] sampleIds;
    private final long[] descriptionIds;
    private final DescriptionAssembler[] assemblers;
    private final ConfigFrame[] descriptions;
    private final PmuSampleView view = new PmuSampleView();
    private final AtomicLongArray counts = new AtomicLongArray(EgressCounter.values().length);
    private final ByteBuffer out = ByteBuffer.allocate(CommonHeader.MAX_FRAME_SIZE);
    /** Made once: a method reference per call would allocate per sample. */
    private final FrameAligner.ReleaseSink release = this::send;
    private final byte[] payload = new byte[org.gridstat.core.wire.WireFormat.MAX_PAYLOAD_LENGTH];
    private final ByteBuffer payloadView = ByteBuffer.wrap(payload);
    private final Thread timer;
    private volatile ConfigFrame served;
    private FrameAligner aligner;
    private OutputFrameBuilder builder;
    private PmuServer server;
    private volatile boolean closed;

    public EgressStream(EgressSettings settings, PmuServer.Settings serverSettings, NanoClock mono) {
        this.settings = settings;
        this.mono = mono;
        int n = settings.pmuVariables().size();
        assemblers = new DescriptionAssembler[n];
        sampleIds = new long[n];
        descriptionIds = new long[n];
        descriptions = new ConfigFrame[n];
        for (int s = 0; s < n; s++) {
            String v = settings.pmuVariables().get(s);
            sampleIds[s] = VariableId.ofName(VariableName.of(v)).value();
            descriptionIds[s] = VariableId.ofName(VariableName.of(VariableNames.description(v))).value();
            assemblers[s] = new DescriptionAssembler();
        }
        // bound now, so a taken port fails the start; until every description is in it answers no
        // configuration (counted by the server) and sends no data
        this.server = PmuServer.start(serverSettings, new Served());
        timer = new Thread(this::runTimer, "gridstat-egress-" + settings.name());
        timer.setDaemon(true);
        timer.start();
    }

    /** The variables a subscriber must receive for this stream: each PMU's samples and description. */
    public List<String> variables() {
        List<String> all = new ArrayList<>();
        for (String v : settings.pmuVariables()) {
            all.add(v);
            all.add(VariableNames.description(v));
        }
        return all;
    }

    public EgressSettings settings() {
        return settings;
    }

    /** The CFG-2 served, or null while a PMU's description is still missing. */
    public ConfigFrame served() {
        return served;
    }

    /** The server: bound from the start, serving once every description is known ({@link #served()}). */
    public synchronized PmuServer server() {
        return server;
    }

    public long count(EgressCounter c) {
        return counts.get(c.ordinal());
    }

    public Map<EgressCounter, Long> counters() {
        Map<EgressCounter, Long> m = new EnumMap<>(EgressCounter.class);
        for (EgressCounter c : EgressCounter.values()) {
            m.put(c, counts.get(c.ordinal()));
        }
        return m;
    }

    @Override
    public void onEvent(ReceivedEvent e) {
        long id = e.variableId();
        int slot = slotOf(sampleIds, id);
        if (slot >= 0) {
            sample(slot, e);
            return;
        }
        slot = slotOf(descriptionIds, id);
        if (slot >= 0) {
            descriptionPart(slot, e);
        }
    }

    private synchronized void sample(int slot, ReceivedEvent e) {
        add(EgressCounter.SAMPLES);
        int n = e.copyPayload(payload, 0);
        if (view.wrap(payload, 0, n) != SampleReject.OK) {
            add(EgressCounter.SAMPLES_MALFORMED);
            return;
        }
        ConfigFrame s = served;
        if (s == null || aligner == null) {
            add(EgressCounter.SAMPLES_WITHOUT_DESCRIPTION);
            return;
        }
        PmuConfig pmu = s.pmus().get(slot);
        if (!view.hasShape(pmu.format().raw(), pmu.phasorCount(), pmu.analogCount(), pmu.digitalCount())) {
            add(EgressCounter.SAMPLES_SHAPE_MISMATCH);
            return;
        }
        if (view.configCount() != pmu.configCount()) {
            // same shape, another configuration (scales, nominal, names): not served under the old one
            add(EgressCounter.SAMPLES_CONFIG_MISMATCH);
            return;
        }
        long key = TimeKey.of(view.soc(), view.fracSec(), view.timeBase(), s.timeBase());
        FrameAligner.Offer o = aligner.offer(slot, key, payloadView, 0, n, mono.nanoTime(), release);
        switch (o) {
            case LATE -> add(EgressCounter.SAMPLES_LATE);
            case DUPLICATE -> add(EgressCounter.SAMPLES_DUPLICATE);
            case FAR_AHEAD -> add(EgressCounter.SAMPLES_FAR_AHEAD);
            case TOO_LARGE -> add(EgressCounter.SAMPLES_SHAPE_MISMATCH);
            default -> notifyAll(); // the timer waits for the earliest window end
        }
    }

    private synchronized void descriptionPart(int slot, ReceivedEvent e) {
        add(EgressCounter.DESCRIPTION_PARTS);
        int n = e.copyPayload(payload, 0);
        PartOutcome o = assemblers[slot].accept(payload, 0, n);
        if (o == PartOutcome.COMPLETE) {
            ConfigFrame d = assemblers[slot].description();
            if (descriptions[slot] != null && !descriptions[slot].pmus().equals(d.pmus())) {
                add(EgressCounter.DESCRIPTION_CHANGES);
            }
            if (descriptions[slot] == null || !descriptions[slot].pmus().equals(d.pmus())
                    || descriptions[slot].timeBase() != d.timeBase() || descriptions[slot].dataRate() != d.dataRate()) {
                descriptions[slot] = d;
                describe();
            }
        } else if (o.rejected()) {
            add(EgressCounter.DESCRIPTION_PARTS_REFUSED);
        }
    }

    /** Every PMU described: the stream's configuration is (again) theirs; the server starts with the first. */
    private void describe() {
        if (Arrays.stream(descriptions).anyMatch(d -> d == null)) {
            return;
        }
        ConfigFrame first = descriptions[0];
        int rate = settings.dataRate() != 0 ? settings.dataRate() : first.dataRate();
        ConfigFrame cfg = PmuDescription.join(first.version(), settings.idCode(), first.timeBase(), rate,
                List.of(descriptions));
        long size = ConfigFrameCodec.encodedSize(cfg);
        if (size > CommonHeader.MAX_FRAME_SIZE) {
            add(EgressCounter.CONFIGURATION_TOO_LARGE);
            LOG.error("stream {}: its PMUs' configurations joined make a CFG-2 of {} bytes, over the 65,535 a frame"
                    + " holds: not served; split the PMUs over several streams", settings.name(), size);
            served = null;
            aligner = null;
            return;
        }
        if (aligner != null) {
            // frames of the old configuration leave first, as they are: every window ends now
            aligner.poll(Long.MAX_VALUE / 2, release);
        }
        OutputFrameBuilder b = new OutputFrameBuilder(cfg);
        aligner = new FrameAligner(b.sampleLengths(), settings.waitWindow().toNanos(), settings.maxPending(),
                HORIZON_SECONDS, RESYNC_NANOS);
        builder = b;
        served = cfg;
        LOG.info("stream {}: serving {} PMUs ({} frames a second) as IDCODE {}", settings.name(), cfg.pmus().size(),
                cfg.dataRate(), settings.idCode());
    }

    /** Builds the frame of an aligned timestamp and hands it to the server. */
    private void send(AlignedFrame f) {
        int size = builder.build(f, out, 0);
        int absent = 0;
        for (int s = 0; s < f.slotCount(); s++) {
            if (!f.present(s)) {
                absent++;
            }
        }
        add(absent == 0 ? EgressCounter.FRAMES_COMPLETE : EgressCounter.FRAMES_WITH_ABSENT);
        counts.addAndGet(EgressCounter.ABSENT_BLOCKS.ordinal(), absent);
        if (server != null) {
            server.send(out.limit(size).position(0)); // copied by the server; the buffer is ours again after
        }
    }

    private void runTimer() {
        while (!closed) {
            synchronized (this) {
                long now = mono.nanoTime();
                long wait;
                if (aligner == null) {
                    wait = 100_000_000L;
                } else {
                    aligner.poll(now, release);
                    long next = aligner.nextDeadline();
                    wait = next == Long.MAX_VALUE ? 100_000_000L : Math.max(0, next - now);
                }
                if (wait > 0) {
                    try {
                        wait(wait / 1_000_000L, (int) (wait % 1_000_000L));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    private static int slotOf(long[] ids, long id) {
        for (int s = 0; s < ids.length; s++) {
            if (ids[s] == id) {
                return s;
            }
        }
        return -1;
    }

    private void add(EgressCounter c) {
        counts.incrementAndGet(c.ordinal());
    }

    @Override
    public void close() {
        closed = true;
        timer.interrupt();
        PmuServer s;
        synchronized (this) {
            s = server;
            server = null;
        }
        if (s != null) {
            s.close();
        }
    }

    /** What the server serves: the configuration of the moment. */
    private final class Served implements ServedStream {
        @Override
        public int idCode() {
            return settings.idCode();
        }

        @Override
        public ConfigFrame config1() {
            ConfigFrame c = served;
            if (c == null) {
                return null;
            }
            return new ConfigFrame(FrameType.CONFIG_1, c.version(), c.idCode(), c.soc(), c.fracSec(), c.timeBase(),
                    c.pmus(), c.dataRate());
        }

        @Override
        public ConfigFrame config2() {
            return served;
        }
    }
}
