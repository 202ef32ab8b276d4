package org.gridstat.core.egress;

import java.nio.ByteBuffer;
import java.util.List;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.FlowCommand;
import org.gridstat.core.forward.FlowEntry;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.FlowSpec;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.time.ManualClock;
import org.gridstat.core.wire.FrameAdmission;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventEncoder;

/**
 * Runs the data path's own code (frame admission, the engine's rate filters and queues, the link
 * scheduler with its pacing and overflow, the pump) on synthetic frames, on simulated time, so
 * that the JIT has compiled it before the first real frame. Interpreted, the path is an order of
 * magnitude slower: a router started into a flood reads its port that slowly for its first
 * second, and the HRT frames that arrive then wait milliseconds. Everything it uses is thrown away;
 * no I/O.
 */
public final class DataPathWarmUp {
    /** Frames a router runs before it opens its ports: well past the JIT's compile thresholds. */
    public static final int DEFAULT_FRAMES = 30_000;

    private static final long T0 = 1_790_000_000_000_000_000L;
    private static final long STEP_NANOS = 2_000; // 500,000 frames/s: a 1 Gbit/s link saturates, BE overflows
    private static final ServiceClass[] CLASSES = {ServiceClass.HRT, ServiceClass.LRT, ServiceClass.BE};

    private DataPathWarmUp() {
    }

    /**
     * Runs {@code frames} frames through a throwaway data path.
     *
     * @return the copies it sent, so the work cannot be optimised away
     */
    public static long run(int frames) {
        ManualClock clock = new ManualClock(T0);
        EventReferences<ByteBuffer> refs = new EventReferences<>() {
            @Override
            public void retain(ByteBuffer e) {
            }

            @Override
            public void release(ByteBuffer e) {
            }
        };
        ForwardingEngine<ByteBuffer> engine = new ForwardingEngine<>(List.of(LinkSpec.withDefaultShares(125_000_000L)),
                8, refs, EstimatorSettings.DEFAULT, clock.nanoTime());
        long interval60 = 16_666_667L;
        for (int v = 1; v <= 3; v++) {
            long[] rates = v == 2 ? new long[] {interval60, 3 * interval60} : new long[0];
            engine.submit(FlowCommand.install(new FlowEntry(1, v, 0,
                    FlowSpec.of(v, CLASSES[v - 1], 10_000_000, 0, 125_000_000L, 20, ""), rates, 1_000_000L,
                    1_000_000L, 100_000L)));
        }
        engine.applyCommands(clock.nanoTime());
        long[] sent = new long[1];
        Transmitter<ByteBuffer> discard = new Transmitter<>() {
            @Override
            public boolean writable() {
                return true;
            }

            @Override
            public void write(ByteBuffer event) {
                sent[0]++;
            }

            @Override
            public void flush() {
            }
        };
        DataPathAgent<ByteBuffer> agent = new DataPathAgent<>(engine,
                List.of(new EgressPump<>(engine, 0, discard, refs, ByteBuffer::remaining, null)), t -> { },
                clock, clock, DataPathAgent.DEFAULT_COMMANDS_PER_CYCLE, EstimatorSettings.DEFAULT.periodNanos());
        ByteBuffer frame = ByteBuffer.allocateDirect(512);
        StatusEventEncoder encoder = new StatusEventEncoder();
        FrameAdmission admission = new FrameAdmission();
        for (int i = 0; i < frames; i++) {
            clock.advance(STEP_NANOS);
            int v = 1 + i % 3;
            long t = clock.nanos();
            int length = encoder.wrap(frame, 0).variableId(v).sequence(i).sourceTimeNanos(t)
                    .deadlineNanos(v == 3 ? 0 : t + 50_000_000L).serviceClass(CLASSES[v - 1]).rawPayloadLength(212)
                    .seal();
            if (admission.admit(frame, 0, length) != RejectReason.NONE) {
                throw new IllegalStateException("the warm-up's own frame was refused");
            }
            agent.beginCycle();
            agent.forward(admission.variableId(), admission.sourceTimeNanos(), admission.deadlineNanos(), frame, length);
            agent.doWork();
        }
        return sent[0];
    }
}
