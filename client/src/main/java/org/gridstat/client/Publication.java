package org.gridstat.client;

import org.gridstat.core.congestion.SourceHold;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * One status variable published through a {@link Publisher}. Each publish stamps the next sequence
 * number (from 0), the source timestamp and, if the publication has a latency bound, the absolute
 * deadline. Thread-safe.
 *
 * <p>With the publisher's congestion notices on ({@link Publisher#congestionNotices}), a best-effort
 * or LRT publication may be held by its first router to fewer samples per second: a sample the
 * hold skips is not sent, takes no sequence number, and {@code publish} returns {@code false} for
 * it ({@link #held()} counts them). An HRT publication is never held.
 */
public final class Publication {
    private final Publisher publisher;
    private final VariableId variableId;
    private final ServiceClass serviceClass;
    private final long latencyBoundNanos;
    /** What the first router's notices hold it to; guarded by the publisher. */
    private final SourceHold hold;
    private long nextSequence;

    Publication(Publisher publisher, VariableId variableId, ServiceClass serviceClass, long latencyBoundNanos,
                long intervalNanos) {
        this.publisher = publisher;
        this.variableId = variableId;
        this.serviceClass = serviceClass;
        this.latencyBoundNanos = latencyBoundNanos;
        this.hold = new SourceHold(serviceClass, intervalNanos);
    }

    /** Publishes a double stamped with the publisher's clock. */
    public boolean publish(double value) {
        return publish(value, publisher.clock().nanos());
    }

    /**
     * Publishes a double taken at {@code sourceTimeNanos} (ns since the epoch).
     *
     * @return whether the sample was handed to the network; failures are counted by the publisher
     */
    public boolean publish(double value, long sourceTimeNanos) {
        synchronized (publisher) {
            if (!hold.send(sourceTimeNanos)) {
                return false;
            }
            publisher.begin(this, nextSequence, sourceTimeNanos).doublePayload(value);
            nextSequence++; // only once the frame is written: a rejected argument leaves no gap
            return publisher.send();
        }
    }

    /** Publishes the first {@code count} floats of {@code values}, such as a set of phasors. */
    public boolean publish(float[] values, int count, long sourceTimeNanos) {
        synchronized (publisher) {
            if (!hold.send(sourceTimeNanos)) {
                return false;
            }
            publisher.begin(this, nextSequence, sourceTimeNanos).floatPayload(values, count);
            nextSequence++; // only once the frame is written: a rejected argument leaves no gap
            return publisher.send();
        }
    }

    /** Publishes opaque bytes. */
    public boolean publish(byte[] bytes, int offset, int length, long sourceTimeNanos) {
        synchronized (publisher) {
            if (!hold.send(sourceTimeNanos)) {
                return false;
            }
            publisher.begin(this, nextSequence, sourceTimeNanos).rawPayload(bytes, offset, length);
            nextSequence++; // only once the frame is written: a rejected argument leaves no gap
            return publisher.send();
        }
    }

    public VariableId variableId() {
        return variableId;
    }

    public ServiceClass serviceClass() {
        return serviceClass;
    }

    long latencyBoundNanos() {
        return latencyBoundNanos;
    }

    /** Holds to {@code rateHz} (0: none), as the first router advised; whether that changed anything. */
    boolean advise(int rateHz) {
        synchronized (publisher) {
            return hold.advise(rateHz);
        }
    }

    /** The samples per second the first router holds this publication to; 0: none. */
    public int advisedRateHz() {
        synchronized (publisher) {
            return hold.rateHz();
        }
    }

    /** Samples held back at the source as the first router advised: not sent, no sequence number taken. */
    public long held() {
        synchronized (publisher) {
            return hold.held();
        }
    }

    /** The sequence number the next sample will carry. */
    public long nextSequence() {
        synchronized (publisher) {
            return nextSequence;
        }
    }
}
