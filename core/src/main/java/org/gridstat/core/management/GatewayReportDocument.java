package org.gridstat.core.management;

import java.util.List;

/**
 * What a phasor gateway reports of its devices to the broker ({@code PUT /gateways/{gateway}/devices}):
 * every device it reads, as of the report, and how often it reports, so the broker can tell a
 * gateway that has gone silent (no report for three periods) from one that is merely between
 * reports.
 *
 * @param periodMs the gateway's reporting period in milliseconds
 */
public record GatewayReportDocument(Integer periodMs, List<DeviceDocument> devices) {
    /** The shortest and longest reporting periods the broker takes. */
    public static final int MIN_PERIOD_MS = 100;
    public static final int MAX_PERIOD_MS = 600_000;
    /** The most devices one gateway may report. */
    public static final int MAX_DEVICES = 1_000;
}
