package org.gridstat.gateway.aggregate;

/** What the aggregator did with a reading, each described once. */
public enum OfferOutcome {
    ACCEPTED("folded into its region's interval"),
    LATE("its interval was already closed and emitted; dropped"),
    AHEAD("its interval lies beyond the intervals held open; dropped"),
    REPEATED("the meter already reported in that interval (its first reading counts); dropped"),
    FORGOTTEN("the meter was forgotten or its connection closed; dropped");

    private final String description;

    OfferOutcome(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
