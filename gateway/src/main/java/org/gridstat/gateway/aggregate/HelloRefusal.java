package org.gridstat.gateway.aggregate;

/** Why the aggregator refused a meter's hello, each described once. */
public enum HelloRefusal {
    TOO_MANY_METERS("the aggregator already knows its maximum of meters"),
    TOO_MANY_REGIONS("the meter names a new region and the aggregator already holds its maximum of regions"),
    REGION_CONFLICT("the meter is known in another region; it must be forgotten before it moves");

    private final String description;

    HelloRefusal(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
