package org.gridstat.gateway.aggregate;

/** Every counter the meter server keeps, described once: the views and logs take their labels from here. */
public enum MeterCounter {
    CONNECTIONS_ACCEPTED("meter connections taken on"),
    CONNECTIONS_REFUSED("connections closed at once: the server had its maximum of connections"),
    CONNECTIONS_CLOSED("connections that ended, by either side, for any reason"),
    CLOSED_HELLO_TIMEOUT("connections closed for sending no hello within the hello timeout"),
    CLOSED_IDLE("connections closed for sending nothing within the idle timeout"),
    CLOSED_GARBAGE("connections closed for more skipped bytes than the garbage bound"),
    CLOSED_OVERFLOW("connections closed for sending on while paused beyond the buffer bound"),
    CLOSED_HELLO_REFUSED("connections closed because the aggregator refused their hello (reasons: HelloRefusal)"),
    CLOSED_HELLO_CHANGED("connections closed for a second hello naming another meter or region"),
    HELLOS("hellos accepted"),
    HELLOS_REPEATED("hellos repeating the connection's own meter and region, ignored"),
    READINGS_BEFORE_HELLO("readings dropped because the connection had not said hello"),
    READINGS_ACCEPTED("readings folded into an interval"),
    READINGS_LATE("readings dropped because their interval was already closed"),
    READINGS_AHEAD("readings dropped because their interval lay beyond those held open"),
    READINGS_REPEATED("readings dropped because the meter had already reported in that interval"),
    READINGS_FORGOTTEN("readings dropped because their meter was forgotten"),
    RECORDS_REJECTED("records the decoder refused (by reason in the rejects table)"),
    BYTES_SKIPPED("bytes that were not part of a record"),
    BYTES_UNREAD_AT_CLOSE("bytes received but not decoded when their connection closed"),
    PAUSES("times a connection was paused (reading off) for exceeding its rate"),
    RESUMES("times a paused connection was resumed");

    private final String description;

    MeterCounter(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
