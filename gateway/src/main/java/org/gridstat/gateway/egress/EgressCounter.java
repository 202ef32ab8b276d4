package org.gridstat.gateway.egress;

/** Every counter an egress stream keeps, described once. */
public enum EgressCounter {
    SAMPLES("samples received for the stream's PMUs"),
    SAMPLES_MALFORMED("samples dropped because their payload is not a valid PMU sample"),
    SAMPLES_WITHOUT_DESCRIPTION("samples dropped because the stream did not know every PMU's description yet"),
    SAMPLES_SHAPE_MISMATCH("samples dropped because their format or channel counts are not their PMU's description's"),
    SAMPLES_CONFIG_MISMATCH("samples dropped because their CFGCNT is not their PMU's description's (a change not yet described)"),
    SAMPLES_LATE("samples dropped because their time's frame had been sent already"),
    SAMPLES_DUPLICATE("samples dropped because their PMU's sample for that time had come already"),
    SAMPLES_FAR_AHEAD("samples dropped because their time lay beyond the aligner's horizon"),
    DESCRIPTION_PARTS("description parts received"),
    DESCRIPTION_PARTS_REFUSED("description parts refused (malformed, inconsistent or not a one-PMU CFG-2)"),
    DESCRIPTION_CHANGES("descriptions that replaced an earlier one of the same PMU"),
    CONFIGURATION_TOO_LARGE("times the PMUs' descriptions joined made a CFG-2 over 65,535 bytes: the stream is not served"),
    FRAMES_COMPLETE("data frames sent with every PMU's sample"),
    FRAMES_WITH_ABSENT("data frames sent with one or more PMUs absent (their wait window ended)"),
    ABSENT_BLOCKS("PMU blocks sent as absent data");

    private final String description;

    EgressCounter(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
