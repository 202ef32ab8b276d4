package org.gridstat.gateway.mapping;

/**
 * Why a payload was not taken as a PMU sample. {@link PmuSampleView#wrap} answers one of these
 * instead of throwing; {@link #OK} means the sample is whole and consistent.
 */
public enum SampleReject {
    OK("a whole, consistent sample"),
    TOO_SHORT("fewer bytes than the 26-byte sample header"),
    TOO_LONG("more bytes than a status-event payload holds (1,424)"),
    UNKNOWN_KIND("the first byte is not 1, the kind of a PMU sample"),
    BAD_VERSION("the C37.118 frame version is neither 1 (2005) nor 2 (2011)"),
    ZERO_TIME_BASE("TIME_BASE counts 0 per second: no time can be computed from FRACSEC"),
    LENGTH_MISMATCH("the bytes after the header are not the PMU block FORMAT, PHNMR, ANNMR and DGNMR imply"),
    SHAPE_MISMATCH("(from the egress, not from wrap) FORMAT, PHNMR, ANNMR or DGNMR differ from the slot's description");

    private final String description;

    SampleReject(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
