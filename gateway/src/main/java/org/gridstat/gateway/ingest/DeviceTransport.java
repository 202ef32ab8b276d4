package org.gridstat.gateway.ingest;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How the gateway reaches a PMU or PDC, as C37.118.2 annex E describes the modes. */
public enum DeviceTransport {
    /** Commands and data on one TCP connection that the gateway opens. */
    TCP("tcp"),
    /** Commands as UDP datagrams to the device; data back to the gateway's socket. */
    UDP("udp"),
    /** Commands on a TCP connection, data as UDP datagrams to the gateway's socket. */
    TCP_UDP("tcp+udp"),
    /** No commands: the device sends data, and CFG-2 now and then, to the gateway's socket unasked. */
    SPONTANEOUS("spontaneous");

    private final String label;

    DeviceTransport(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether the gateway sends commands (and so can ask for the configuration). */
    public boolean commands() {
        return this != SPONTANEOUS;
    }

    /** Whether data arrives as UDP datagrams on the gateway's own socket. */
    public boolean udpData() {
        return this != TCP;
    }

    /** @throws IllegalArgumentException naming the labels accepted */
    public static DeviceTransport of(String label) {
        for (DeviceTransport t : values()) {
            if (t.label.equalsIgnoreCase(label)) {
                return t;
            }
        }
        throw new IllegalArgumentException("transport '" + label + "' is none of "
                + Arrays.stream(values()).map(DeviceTransport::label).collect(Collectors.joining(", ")));
    }
}
