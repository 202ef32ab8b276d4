package org.gridstat.gateway.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.data.DataLayout;
import org.gridstat.gateway.mapping.PmuDescription;
import org.gridstat.gateway.mapping.PmuSample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a device's frames into status events: each PMU of the stream is one variable whose
 * payload is its {@link PmuSample} (bit-exact, stamped with the sample's own time), and one
 * description variable that carries its configuration ({@link PmuDescription}), one part per
 * {@code descriptionEvery} of sample time, round and round, so a subscriber that joins late learns
 * it. Samples are published at once under the ids their names derive; the declarations to the
 * broker go their own way ({@link Declarations}). A PMU whose sample would not fit a status event
 * is left out, with an error in the log, and counted.
 */
public final class DevicePublisher implements DeviceSession.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(DevicePublisher.class);

    private final String device;
    private final String prefix;
    private final ServiceClass serviceClass;
    private final Duration latencyBound;
    private final long descriptionEveryNanos;
    private final Publisher publisher;
    private final Declarations declarations;
    private final byte[] buffer = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
    private final List<Pmu> pmus = new ArrayList<>();
    private long unpublishable;

    /** One PMU of the stream as published. */
    private static final class Pmu {
        final Publication samples;
        final Publication description;
        final List<byte[]> parts;
        final int configCount;
        int nextPart;
        long nextDescription = Long.MIN_VALUE;

        Pmu(Publication samples, Publication description, List<byte[]> parts, int configCount) {
            this.samples = samples;
            this.description = description;
            this.parts = parts;
            this.configCount = configCount;
        }
    }

    public DevicePublisher(String device, String prefix, ServiceClass serviceClass, Duration latencyBound,
                           Duration descriptionEvery, Publisher publisher, Declarations declarations) {
        VariableName.of(prefix);
        this.device = device;
        this.prefix = prefix;
        this.serviceClass = serviceClass;
        this.latencyBound = latencyBound;
        this.descriptionEveryNanos = descriptionEvery.toNanos();
        this.publisher = publisher;
        this.declarations = declarations;
    }

    /** Samples of PMUs whose data could not be published (too large for a status event). */
    public long unpublishable() {
        return unpublishable;
    }

    /** The sample variables of the configuration in force, in its PMU order. */
    public List<String> variables(ConfigFrame config) {
        return VariableNames.samples(prefix, config.pmus());
    }

    @Override
    public void configuration(ConfigFrame config) {
        pmus.clear();
        DataLayout layout = DataLayout.of(config);
        List<String> names = variables(config);
        Duration interval = interval(config.dataRate());
        for (int p = 0; p < config.pmus().size(); p++) {
            PmuConfig pmu = config.pmus().get(p);
            String name = names.get(p);
            if (!PmuSample.fits(layout, p)) {
                LOG.error("device {}: PMU {} ({}) sends samples of {} bytes, more than a status event's {}: not published",
                        device, pmu.idCode(), name, PmuSample.length(layout, p), PmuSample.MAX_LENGTH);
                pmus.add(null);
                continue;
            }
            // SOC and FRACSEC 0: the description of a configuration is the same whenever it was sent
            ConfigFrame one = PmuDescription.forPmu(new ConfigFrame(config.type(), config.version(), config.idCode(), 0,
                    0, config.timeBase(), config.pmus(), config.dataRate()), p);
            List<byte[]> parts = PmuDescription.parts(one, WireFormat.MAX_PAYLOAD_LENGTH);
            String descriptionName = VariableNames.description(name);
            pmus.add(new Pmu(
                    publisher.publication(VariableId.ofName(VariableName.of(name)), serviceClass, latencyBound, interval),
                    publisher.publication(VariableId.ofName(VariableName.of(descriptionName)), ServiceClass.BE, null,
                            Duration.ofNanos(descriptionEveryNanos)),
                    parts, pmu.configCount()));
            declarations.declare(name, WireFormat.HEADER_LENGTH + (int) PmuSample.length(layout, p), interval,
                    serviceClass);
            int largest = parts.stream().mapToInt(b -> b.length).max().orElse(0);
            declarations.declare(descriptionName, WireFormat.HEADER_LENGTH + largest,
                    Duration.ofNanos(descriptionEveryNanos), ServiceClass.BE);
            LOG.info("device {}: PMU {} publishes {} ({} description parts)", device, pmu.idCode(), name, parts.size());
        }
    }

    @Override
    public void data(DataFrameReader frame) {
        long time = PmuSample.sourceTimeNanos(frame.soc(), frame.fracSec(), frame.layout().timeBase());
        for (int p = 0; p < pmus.size(); p++) {
            Pmu pmu = pmus.get(p);
            if (pmu == null) {
                unpublishable++;
                continue;
            }
            int n = PmuSample.encode(frame, p, pmu.configCount, buffer, 0);
            pmu.samples.publish(buffer, 0, n, time);
            if (time >= pmu.nextDescription) {
                byte[] part = pmu.parts.get(pmu.nextPart);
                pmu.description.publish(part, 0, part.length, time);
                pmu.nextPart = (pmu.nextPart + 1) % pmu.parts.size();
                pmu.nextDescription = time + descriptionEveryNanos;
            }
        }
    }

    /** A stream's DATA_RATE as a publication interval: frames per second, or seconds per frame if negative. */
    static Duration interval(int dataRate) {
        if (dataRate > 0) {
            return Duration.ofNanos(Math.round(1e9 / dataRate));
        }
        return Duration.ofSeconds(dataRate == 0 ? 1 : -(long) dataRate);
    }
}
