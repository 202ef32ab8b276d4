package org.gridstat.rpc.server;

import java.io.IOException;
import java.util.List;

/**
 * What a server writes down so that a restart executes no request twice: each request it
 * accepts, durably before its actuator runs, then its reply and its post-condition report, so a
 * retry after the restart gets them replayed. {@link #NONE} keeps nothing: a restarted server then
 * relies on deadlines alone (a retry of a request accepted before is refused as late only once its
 * deadline passed).
 */
public interface RequestLog extends AutoCloseable {
    /** One request as written down; {@code reply} and {@code post} are {@code null} until known. */
    record Entry(long session, long requestId, long expiresEpochNanos, byte[] reply, byte[] post) {
    }

    /**
     * Durable when it returns; the actuator runs only after.
     *
     * @throws IOException if it cannot be written, or if the request was accepted before: the
     *                     server then refuses it and runs nothing
     */
    void accepted(long session, long requestId, long expiresEpochNanos) throws IOException;

    void answered(long session, long requestId, byte[] reply) throws IOException;

    void posted(long session, long requestId, byte[] post) throws IOException;

    /** The entries written before, those not yet expired at {@code nowEpochNanos}. */
    List<Entry> restore(long nowEpochNanos) throws IOException;

    @Override
    void close() throws IOException;

    RequestLog NONE = new RequestLog() {
        @Override
        public void accepted(long session, long requestId, long expiresEpochNanos) {
        }

        @Override
        public void answered(long session, long requestId, byte[] reply) {
        }

        @Override
        public void posted(long session, long requestId, byte[] post) {
        }

        @Override
        public List<Entry> restore(long nowEpochNanos) {
            return List.of();
        }

        @Override
        public void close() {
        }
    };
}
