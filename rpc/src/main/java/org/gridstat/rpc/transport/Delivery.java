package org.gridstat.rpc.transport;

/** What a sender learns of a message sent with acknowledgement. */
public enum Delivery {
    /** The receiver acknowledged one of its tries. */
    ACKNOWLEDGED,
    /** Every try timed out unacknowledged: it may or may not have arrived. */
    UNKNOWN
}
