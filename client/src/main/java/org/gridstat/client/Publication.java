package org.gridstat.client;

import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/**
 * One status variable published through a {@link Publisher}. Each publish stamps the next sequence
 * number (from 0), the source timestamp and, if the publication has a latency bound, the absolute
 * deadline. Thread-safe.
 */
public final class Publication {
    private final Publisher publisher;
    private final VariableId variableId;
    private final ServiceClass serviceClass;
    private final long latencyBoundNanos;
    private long nextSequence;

    Publication(Publisher publisher, VariableId variableId, ServiceClass serviceClass, long latencyBoundNanos) {
        this.publisher = publisher;
        this.variableId = variableId;
        this.serviceClass = serviceClass;
        this.latencyBoundNanos = latencyBoundNanos;
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
            publisher.begin(this, nextSequence, sourceTimeNanos).doublePayload(value);
            nextSequence++; // only once the frame is written: a rejected argument leaves no gap
            return publisher.send();
        }
    }

    /** Publishes the first {@code count} floats of {@code values}, such as a set of phasors. */
    public boolean publish(float[] values, int count, long sourceTimeNanos) {
        synchronized (publisher) {
            publisher.begin(this, nextSequence, sourceTimeNanos).floatPayload(values, count);
            nextSequence++; // only once the frame is written: a rejected argument leaves no gap
            return publisher.send();
        }
    }

    /** Publishes opaque bytes. */
    public boolean publish(byte[] bytes, int offset, int length, long sourceTimeNanos) {
        synchronized (publisher) {
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

    /** The sequence number the next sample will carry. */
    public long nextSequence() {
        synchronized (publisher) {
            return nextSequence;
        }
    }
}
