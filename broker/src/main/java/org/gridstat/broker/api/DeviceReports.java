package org.gridstat.broker.api;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;

/**
 * The latest device report of each phasor gateway, kept in memory only: a live view, not broker
 * state. ZooKeeper is not written on every report, and a replica that takes the lead learns the
 * devices from each gateway's next report, a period later.
 *
 * <p>A gateway is {@linkplain Entry#stale stale} once it has not reported for
 * {@value #STALE_PERIODS} of its own periods, and its report is dropped after
 * {@link #DROP_AFTER_NANOS} (an hour) of silence. At most {@link #MAX_GATEWAYS} gateways are
 * kept: a new one at the cap takes the place of the longest-silent stale gateway, and is refused
 * if every gateway kept is reporting, so that a live gateway is never pushed out by new names.
 * Memory is bounded by the cap and the API's body limit (a report is at most 64 KiB of JSON).
 * Thread-safe.
 */
final class DeviceReports {
    static final int MAX_GATEWAYS = 1_000;
    static final int STALE_PERIODS = 3;
    static final long DROP_AFTER_NANOS = 3_600_000_000_000L;

    /** A gateway's latest report, with the broker's clocks at its arrival. */
    record Entry(String gateway, GatewayReportDocument report, long receivedEpochNanos, long receivedMonoNanos) {
        long ageNanos(long nowMono) {
            return nowMono - receivedMonoNanos;
        }

        boolean stale(long nowMono) {
            return ageNanos(nowMono) > STALE_PERIODS * report.periodMs() * 1_000_000L;
        }
    }

    /** Why a report was not kept. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    private final Clock wall;
    private final NanoClock mono;
    private final int maxGateways;
    private final Map<String, Entry> latest = new LinkedHashMap<>();

    DeviceReports(Clock wall, NanoClock mono) {
        this(wall, mono, MAX_GATEWAYS);
    }

    DeviceReports(Clock wall, NanoClock mono, int maxGateways) {
        this.wall = wall;
        this.mono = mono;
        this.maxGateways = maxGateways;
    }

    /**
     * Keeps a validated report as the gateway's latest.
     *
     * @throws Refused if the gateway is new and every one of the {@code maxGateways} kept reports
     */
    synchronized void put(String gateway, GatewayReportDocument report) {
        long now = mono.nanoTime();
        dropSilent(now);
        if (!latest.containsKey(gateway) && latest.size() >= maxGateways) {
            // in arrival order, so the first stale one is the longest silent (periods differ by gateway)
            Entry silent = latest.values().stream().filter(e -> e.stale(now)).findFirst().orElse(null);
            if (silent == null) {
                throw new Refused("the broker shows the devices of at most " + maxGateways + " gateways, and all "
                        + maxGateways + " it shows are reporting; gateway '" + gateway + "' is refused until one of"
                        + " them falls silent");
            }
            latest.remove(silent.gateway());
        }
        latest.remove(gateway); // re-inserted last, so that the map runs from the longest silent to the latest
        latest.put(gateway, new Entry(gateway, report, wall.nanos(), now));
    }

    /** Every gateway's latest report, by gateway id. */
    synchronized List<Entry> all() {
        dropSilent(mono.nanoTime());
        return new ArrayList<>(new TreeMap<>(latest).values());
    }

    long nowMono() {
        return mono.nanoTime();
    }

    private void dropSilent(long now) {
        for (Iterator<Entry> i = latest.values().iterator(); i.hasNext(); ) {
            if (i.next().ageNanos(now) <= DROP_AFTER_NANOS) {
                return; // in arrival order: the rest are younger
            }
            i.remove();
        }
    }
}
