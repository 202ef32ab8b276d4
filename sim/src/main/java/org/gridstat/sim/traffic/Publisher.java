package org.gridstat.sim.traffic;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.gridstat.core.congestion.SourceHold;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.wire.StatusEventEncoder;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.net.SimDatagram;

/**
 * A periodic publisher of one status variable: sample {@code k} is taken at the start plus
 * {@code k} intervals plus a jitter drawn uniformly below {@code jitterNanos}, stamped with that
 * time on the publisher's epoch clock and the deadline its latency bound gives, encoded with core's
 * encoder, and sent at once, one frame per datagram, to its router. The interval may change on a
 * timeline; a change takes effect from the next sample. An application may also {@link #send} a
 * sample of its own at any time (a periodic start at or after the run's end gives it the variable
 * alone).
 */
public final class Publisher {
    private final EventLoop loop;
    private final long variableId;
    private final ServiceClass serviceClass;
    private final int frameBytes;
    private final long latencyBoundNanos;
    private final long jitterNanos;
    private final long epochBaseNanos;
    private final long clockOffsetNanos;
    private final SplittableRandom random;
    private final Consumer<SimDatagram> router;
    private final Consumer<Sample> onSample;
    private final StatusEventEncoder encoder = new StatusEventEncoder();
    private long intervalNanos;
    private long nextNominal;
    private long sequence;
    private boolean running;
    private EventLoop.Timer timer;
    /** What its first router's congestion notices hold it to. */
    private final SourceHold hold;
    /** Told the time of the first sample held after the last advice, once; {@code null}: told already. */
    private java.util.function.LongConsumer onFirstHeld;

    /** A sample as it left the publisher: for the subscribers' accounting. */
    public record Sample(long variableId, long sequence, long sourceTimeNanos, long sentAt) {
    }

    /**
     * @param latencyBoundNanos the bound stamped as an absolute deadline, 0 for none
     * @param router            where the datagrams go (the publisher's router)
     * @param onSample          told of every sample sent
     */
    public Publisher(EventLoop loop, long variableId, ServiceClass serviceClass, int frameBytes, long intervalNanos,
                     long jitterNanos, long latencyBoundNanos, long epochBaseNanos, long clockOffsetNanos,
                     SplittableRandom random, Consumer<SimDatagram> router, Consumer<Sample> onSample) {
        if (frameBytes < WireFormat.HEADER_LENGTH || frameBytes > WireFormat.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException("a status event frame is " + WireFormat.HEADER_LENGTH + ".."
                    + WireFormat.MAX_FRAME_LENGTH + " bytes, got " + frameBytes);
        }
        if (intervalNanos <= 0 || jitterNanos < 0 || jitterNanos >= intervalNanos) {
            throw new IllegalArgumentException("interval must be positive and jitter below it, got " + intervalNanos
                    + " ns and " + jitterNanos + " ns");
        }
        this.loop = loop;
        this.variableId = variableId;
        this.serviceClass = serviceClass;
        this.frameBytes = frameBytes;
        this.intervalNanos = intervalNanos;
        this.jitterNanos = jitterNanos;
        this.latencyBoundNanos = latencyBoundNanos;
        this.epochBaseNanos = epochBaseNanos;
        this.clockOffsetNanos = clockOffsetNanos;
        this.random = random;
        this.router = router;
        this.onSample = onSample;
        this.hold = new SourceHold(serviceClass, intervalNanos);
    }

    /** Starts publishing at {@code at}, on the grid of its interval from there. */
    public void start(long at) {
        running = true;
        nextNominal = at;
        timer = loop.at(at + jitter(), this::publish);
    }

    public void stop() {
        running = false;
        if (timer != null) {
            timer.cancel();
        }
    }

    /** Publishes every {@code interval} from the next sample on. */
    public void interval(long nanos) {
        if (nanos <= 0 || jitterNanos >= nanos) {
            throw new IllegalArgumentException("interval must be positive and above the jitter, got " + nanos + " ns");
        }
        this.intervalNanos = nanos;
        hold.interval(nanos);
    }

    /**
     * A congestion notice from its router: from now on, sends at most {@code rateHz} samples per
     * second (0: no limit); an HRT publisher is never held.
     */
    public void advise(int rateHz) {
        advise(rateHz, null);
    }

    /** The same, telling {@code firstHeld} when the first sample is held back under it (never, if none is). */
    public void advise(int rateHz, java.util.function.LongConsumer firstHeld) {
        hold.advise(rateHz);
        onFirstHeld = firstHeld;
    }

    /** The rate its router advised, 0 for none. */
    public int advisedRate() {
        return hold.rateHz();
    }

    /** Samples taken but held back at the source, as its router advised. */
    public long held() {
        return hold.held();
    }

    public long variableId() {
        return variableId;
    }

    public long intervalNanos() {
        return intervalNanos;
    }

    private long jitter() {
        return jitterNanos == 0 ? 0 : random.nextLong(jitterNanos);
    }

    private void publish() {
        if (!running) {
            return;
        }
        emit(null);
        nextNominal += intervalNanos;
        timer = loop.at(nextNominal + jitter(), this::publish);
    }

    /**
     * Sends one sample now carrying {@code payload}, beside the periodic ones (an application's
     * event: an RPC frame): the next sequence number, stamped and routed as a periodic sample, and
     * counted for the subscriptions alike. Whether it is running or not does not matter.
     *
     * @return whether it was sent; {@code false} if its router's congestion notice held it back
     * @throws IllegalArgumentException if the payload does not fit one status event frame
     */
    public boolean send(byte[] payload) {
        if (payload.length > WireFormat.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("a status event carries at most " + WireFormat.MAX_PAYLOAD_LENGTH
                    + " bytes of payload, got " + payload.length);
        }
        return emit(payload);
    }

    /** Encodes and sends one sample: {@code payload}, or without one the declared frame's size of zeros. */
    private boolean emit(byte[] payload) {
        long now = loop.now();
        long sourceTime = epochBaseNanos + now + clockOffsetNanos;
        if (!hold.send(sourceTime)) { // a sample held back is never sent: not one the subscribers miss
            if (onFirstHeld != null) {
                onFirstHeld.accept(now);
                onFirstHeld = null;
            }
            return false;
        }
        int payloadLength = payload == null ? frameBytes - WireFormat.HEADER_LENGTH : payload.length;
        ByteBuffer frame = ByteBuffer.allocate(WireFormat.HEADER_LENGTH + payloadLength);
        encoder.wrap(frame, 0).variableId(variableId).sequence(sequence).sourceTimeNanos(sourceTime)
                .deadlineNanos(latencyBoundNanos == 0 ? WireFormat.NO_DEADLINE : sourceTime + latencyBoundNanos)
                .serviceClass(serviceClass);
        if (payload == null) {
            encoder.rawPayloadLength(payloadLength);
        } else {
            encoder.rawPayload(payload, 0, payload.length);
        }
        int length = encoder.seal();
        onSample.accept(new Sample(variableId, sequence, sourceTime, now));
        sequence++;
        router.accept(SimDatagram.of(frame.array(), length));
        return true;
    }

    public long sent() {
        return sequence;
    }
}
