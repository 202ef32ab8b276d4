package org.gridstat.gateway.ingest;

/** Every counter a device session keeps, described once: the views and logs take their labels from here. */
public enum DeviceCounter {
    CONNECTS("connections (TCP) or session starts (UDP) made to the device"),
    DISCONNECTS("connections lost or closed, and sessions started over"),
    CONFIG_REQUESTS("CFG-2 requests sent"),
    CONFIG_FRAMES("CFG-2 frames accepted"),
    CONFIG_CHANGES("configurations that replaced another one (a new CFGCNT, format or channel set)"),
    CONFIG_REFUSED("configuration frames refused: malformed, another IDCODE, or one the gateway cannot publish"),
    CONFIG_CHURN("configuration changes refused because the previous change was less than a second before"),
    DATA_FRAMES("data frames accepted and handed on"),
    DATA_WITHOUT_CONFIG("data frames dropped because no configuration was in force yet"),
    DATA_MISMATCH("data frames dropped because they did not fit the configuration in force (size or IDCODE)"),
    DATA_FUTURE("data frames dropped because their time lay too far ahead of the gateway's clock"),
    DATA_STALE("data frames dropped because their time lay too far behind the gateway's clock"),
    DATA_REPEATED("data frames dropped because their time was not after the previous frame's"),
    DATA_FLOOD("data frames dropped because the device sent faster than its frame-rate limit"),
    DATA_TIMEOUTS("sessions started over because the device sent no data for the data timeout"),
    STAT_DATA_ERROR("PMU blocks whose STAT data-error bits (15-14) were not 00"),
    STAT_SYNC_ERROR("PMU blocks whose STAT bit 13 said the PMU had lost time synchronisation"),
    STAT_CONFIG_CHANGE("data frames with a STAT configuration-change bit (10) set"),
    SHAPING_DELAYED("PMU samples that waited for tokens at the source (a burst above the flow's reservation)"),
    SHAPING_DROPPED("PMU samples dropped whole at the source: the flow's shaping queue had no room for all their packets"),
    UNPUBLISHABLE("PMU samples not published: larger than a status event can carry"),
    HEADER_FRAMES("header frames received"),
    OTHER_FRAMES("command or CFG-1/CFG-3 frames received and ignored"),
    FOREIGN_DATAGRAMS("UDP datagrams from another host than the device's, dropped"),
    FRAMING_REJECTS("bytes or frames the stream framer refused (by reason in the rejects table)");

    private final String description;

    DeviceCounter(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
