package org.gridstat.gateway.ingest;

/** Where a device session stands. */
public enum DeviceState {
    /** Not connected; waiting for the back-off to end. */
    DISCONNECTED,
    /** A TCP connection is being opened. */
    CONNECTING,
    /** Connected; the configuration was asked for and has not come. */
    AWAITING_CONFIG,
    /** A configuration is in force and data is flowing (or was asked for). */
    STREAMING
}
