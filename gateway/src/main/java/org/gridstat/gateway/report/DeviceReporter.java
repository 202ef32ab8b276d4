package org.gridstat.gateway.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.gridstat.client.BrokerConnection;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.NanoClock;
import org.gridstat.gateway.ingest.DeviceStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the gateway's devices to the broker every period ({@code PUT /gateways/{id}/devices}),
 * on a daemon thread of its own: device sessions only publish their counters, so a slow or absent
 * broker delays nothing but the next report. A report that fails is not retried (the next one
 * supersedes it); failures are counted and logged at most once a minute. The next report starts a
 * period after the previous one ended, so reports never pile up behind a broker that hangs.
 */
public final class DeviceReporter implements AutoCloseable {
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(DeviceReporter.class);
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    /** Where a report goes: answers the HTTP status, or throws if the broker could not be reached. */
    @FunctionalInterface
    public interface Sink {
        int put(String path, String json);
    }

    private final String path;
    private final Supplier<List<DeviceStatus>> devices;
    private final Sink sink;
    private final int periodMs;
    private final Clock clock;
    private final OutageLog outages;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private ScheduledExecutorService timer;
    private boolean closed;

    /**
     * @param devices the devices' snapshots, each time a report is made
     * @throws IllegalArgumentException if the gateway id or a device name is one the broker refuses
     *                                  (see {@link ReportNames}), or two devices share a name
     */
    public DeviceReporter(String gatewayId, Supplier<List<DeviceStatus>> devices, Sink sink, Duration period,
                          Clock clock, NanoClock monotonic) {
        if (!ReportNames.valid(gatewayId)) {
            throw new IllegalArgumentException("gateway id must be " + ReportNames.rule() + ", got '" + gatewayId + "'");
        }
        long ms = period.toMillis();
        if (ms < GatewayReportDocument.MIN_PERIOD_MS || ms > GatewayReportDocument.MAX_PERIOD_MS) {
            throw new IllegalArgumentException("report period must be " + GatewayReportDocument.MIN_PERIOD_MS + " ms.."
                    + GatewayReportDocument.MAX_PERIOD_MS / 60_000 + " min, got " + period);
        }
        Set<String> names = new HashSet<>();
        for (DeviceStatus d : devices.get()) {
            if (!ReportNames.valid(d.device())) {
                throw new IllegalArgumentException("device '" + d.device() + "': a device reported to the broker is named"
                        + " by " + ReportNames.rule());
            }
            if (!names.add(d.device())) {
                throw new IllegalArgumentException("two devices are named '" + d.device() + "'");
            }
        }
        this.path = "/gateways/" + gatewayId + "/devices";
        this.devices = Objects.requireNonNull(devices);
        this.sink = Objects.requireNonNull(sink);
        this.periodMs = (int) ms;
        this.clock = clock;
        this.outages = new OutageLog(monotonic);
    }

    /** A sink to a broker: PUT without an idempotency key, since a repeated report is harmless. */
    public static Sink to(BrokerConnection broker) {
        return (path, json) -> broker.request("PUT", path, json, null).status();
    }

    /** Reports now, then every period, until closed. */
    public synchronized DeviceReporter start() {
        if (timer == null && !closed) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "gridstat-gateway-device-report");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleWithFixedDelay(this::report, 0, periodMs, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** Makes and sends one report; true if the broker took it. Never throws: the timer must keep running. */
    boolean report() {
        String why;
        try {
            String json = JSON.writeValueAsString(DeviceReport.of(devices.get(), clock.nanos(), periodMs));
            int status = sink.put(path, json);
            if (status >= 200 && status < 300) {
                sent.incrementAndGet();
                String back = outages.succeeded();
                if (back != null) {
                    LOG.info("device reports: {}", back);
                }
                return true;
            }
            why = "the broker answered " + status + " to the device report" + (status == 413
                    ? ": the report is over the API's 64 KiB body limit (too many devices for one report)" : "");
        } catch (JsonProcessingException e) {
            why = "cannot write the device report: " + e.getOriginalMessage();
        } catch (RuntimeException e) {
            why = "cannot send the device report to the broker: " + e.getMessage();
        }
        failed.incrementAndGet();
        String line = outages.failed(why);
        if (line != null) {
            LOG.warn("{}; reporting again every {} ms", line, periodMs);
        }
        return false;
    }

    /** Reports the broker took. */
    public long sent() {
        return sent.get();
    }

    /** Reports that failed: broker unreachable, or an answer other than 2xx. */
    public long failed() {
        return failed.get();
    }

    /** Stops reporting; a report in flight is interrupted. */
    @Override
    public synchronized void close() {
        closed = true;
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("the device report in flight did not stop within 5 s; leaving its daemon thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
