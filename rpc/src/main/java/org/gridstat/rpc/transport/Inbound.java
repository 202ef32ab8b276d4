package org.gridstat.rpc.transport;

/**
 * A DATA message as its receiver sees it, once per try. Valid only during the call that hands it
 * over: the payload is copied by whoever keeps it. A response sent from within that call
 * acknowledges this message in the same frame, so no ACK of its own is sent.
 */
public interface Inbound {
    long connectionId();

    long messageId();

    /** 0 for the first try; a higher try may follow a lost acknowledgement of an earlier one. */
    int attempt();

    /** The redundancy the sender used (its retries are not known here). */
    Redundancy redundancy();

    byte[] bytes();

    int payloadOffset();

    int payloadLength();

    /** A copy of the payload. */
    default byte[] payload() {
        return java.util.Arrays.copyOfRange(bytes(), payloadOffset(), payloadOffset() + payloadLength());
    }
}
