package org.gridstat.gateway.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.gridstat.gateway.shaping.ShapingSettings;
import org.gridstat.gateway.shaping.SourceShaper;
import org.gridstat.core.time.NanoClock;
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
 *
 * <p>With the {@link Mapping#CHANNELS} or {@link Mapping#BOTH} mapping, each channel of each PMU
 * is also (or only) a variable of its own in engineering units ({@link PmuChannels}); those small
 * flows are not shaped.
 *
 * <p>Each PMU's samples are shaped at the source ({@link SourceShaper}) to the reservation its
 * declaration asks for: a burst waits for tokens, on the device's own thread, and what cannot
 * wait is dropped whole and counted. A configuration change discards what was waiting under the
 * old one. One thread at a time: the device session's.
 */
public final class DevicePublisher implements DeviceSession.Sink {
    private static final Logger LOG = LoggerFactory.getLogger(DevicePublisher.class);
    /** The longest prefix: PREFIX/STATION/description within a variable name's 255 characters. */
    public static final int MAX_PREFIX = VariableName.MAX_LENGTH - 1 - VariableNames.MAX_STATION - 1
            - Math.max(VariableNames.DESCRIPTION.length(), PmuChannels.MAX_CHANNEL);
    /** Publications a device may make in its life (two per PMU and configuration seen). */
    static final int MAX_PUBLICATIONS = 1_024;

    private final String device;
    private final String prefix;
    private final ServiceClass serviceClass;
    private final Duration latencyBound;
    private final long descriptionEveryNanos;
    private final Publisher publisher;
    private final Declarations declarations;
    private final byte[] buffer = new byte[WireFormat.MAX_PAYLOAD_LENGTH];
    private final java.nio.ByteBuffer bufferView = java.nio.ByteBuffer.wrap(buffer);
    private List<Pmu> pmus = List.of();
    /** Publications by variable and interval, made once: the client keeps every publication it makes. */
    private final Map<String, Publication> publications = new HashMap<>();
    private final ShapingSettings shaping;
    private final NanoClock mono;
    private final Scheduler scheduler;
    private final DeviceCounters counters;
    private final Mapping mapping;
    private final float[] values = new float[3];
    private long drainAt = Long.MAX_VALUE;

    /** Runs a task on the device's thread after a delay: the shapers' departures. */
    @FunctionalInterface
    public interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    /** One PMU of the stream as published. */
    private static final class Pmu {
        final Publication samples;
        final Publication description;
        final List<byte[]> parts;
        final int configCount;
        final SourceShaper shaper;
        final List<PmuChannels.Channel> channels;
        final Publication[] channelPublications;
        int nextPart;
        long nextDescription = Long.MIN_VALUE / 2;

        Pmu(Publication samples, Publication description, List<byte[]> parts, int configCount, SourceShaper shaper,
            List<PmuChannels.Channel> channels, Publication[] channelPublications) {
            this.shaper = shaper;
            this.channels = channels;
            this.channelPublications = channelPublications;
            this.samples = samples;
            this.description = description;
            this.parts = parts;
            this.configCount = configCount;
        }
    }

    /** A publisher without shaping, counting on its own: for tools and tests. */
    public DevicePublisher(String device, String prefix, ServiceClass serviceClass, Duration latencyBound,
                           Duration descriptionEvery, Publisher publisher, Declarations declarations) {
        this(device, prefix, serviceClass, latencyBound, descriptionEvery, publisher, declarations, ShapingSettings.OFF,
                System::nanoTime, (task, delay) -> {
                    throw new IllegalStateException("no scheduler without shaping");
                }, new DeviceCounters(device));
    }

    /** A publisher of each PMU's whole sample and description. */
    public DevicePublisher(String device, String prefix, ServiceClass serviceClass, Duration latencyBound,
                           Duration descriptionEvery, Publisher publisher, Declarations declarations,
                           ShapingSettings shaping, NanoClock mono, Scheduler scheduler, DeviceCounters counters) {
        this(device, prefix, serviceClass, latencyBound, descriptionEvery, publisher, declarations, shaping, mono,
                scheduler, counters, Mapping.PMU);
    }

    /** @param mapping whole PMU samples, each channel's value, or both */
    public DevicePublisher(String device, String prefix, ServiceClass serviceClass, Duration latencyBound,
                           Duration descriptionEvery, Publisher publisher, Declarations declarations,
                           ShapingSettings shaping, NanoClock mono, Scheduler scheduler, DeviceCounters counters,
                           Mapping mapping) {
        VariableName.of(prefix);
        this.mapping = mapping;
        if (prefix.length() > MAX_PREFIX) {
            throw new IllegalArgumentException("device " + device + ": prefix '" + prefix + "' is " + prefix.length()
                    + " characters, at most " + MAX_PREFIX + ": its PMUs' description variables must fit "
                    + VariableName.MAX_LENGTH);
        }
        this.shaping = shaping;
        this.mono = mono;
        this.scheduler = scheduler;
        this.counters = counters;
        this.device = device;
        this.prefix = prefix;
        this.serviceClass = serviceClass;
        this.latencyBound = latencyBound;
        this.descriptionEveryNanos = descriptionEvery.toNanos();
        this.publisher = publisher;
        this.declarations = declarations;
    }


    /** The sample variables of the configuration in force, in its PMU order. */
    public List<String> variables(ConfigFrame config) {
        return VariableNames.samples(prefix, config.pmus());
    }

    /**
     * Takes a configuration: its PMUs' publications and shapers, made before anything changes.
     *
     * @throws IllegalStateException if the device has used up its publications (a device whose
     *         stations keep changing name); the session then refuses the configuration
     */
    @Override
    public void configuration(ConfigFrame config) {
        List<Pmu> next = new ArrayList<>();
        List<Runnable> declare = new ArrayList<>(); // sent once every publication is made
        DataLayout layout = DataLayout.of(config);
        List<String> names = variables(config);
        Duration interval = interval(config.dataRate());
        for (int p = 0; p < config.pmus().size(); p++) {
            PmuConfig pmu = config.pmus().get(p);
            String name = names.get(p);
            Publication samples = null;
            Publication description = null;
            List<byte[]> parts = List.of();
            SourceShaper shaper = null;
            if (mapping.pmu() && !PmuSample.fits(layout, p)) {
                LOG.error("device {}: PMU {} ({}) sends samples of {} bytes, more than a status event's {}: not published",
                        device, pmu.idCode(), name, PmuSample.length(layout, p), PmuSample.MAX_LENGTH);
            } else if (mapping.pmu()) {
                // SOC and FRACSEC 0: the description of a configuration is the same whenever it was sent
                ConfigFrame one = PmuDescription.forPmu(new ConfigFrame(config.type(), config.version(), config.idCode(),
                        0, 0, config.timeBase(), config.pmus(), config.dataRate()), p);
                parts = PmuDescription.parts(one, WireFormat.MAX_PAYLOAD_LENGTH);
                String descriptionName = VariableNames.description(name);
                int frameBytes = WireFormat.HEADER_LENGTH + (int) PmuSample.length(layout, p);
                if (shaping.enabled()) {
                    // the reservation the declaration asks for: each frame on the wire, every interval
                    long rate = (long) Math.ceil(SourceShaper.wireBytes(frameBytes, shaping.mtu()) * 1e9 / interval.toNanos());
                    shaper = new SourceShaper(rate, frameBytes, shaping, mono.nanoTime());
                }
                samples = publication(name, serviceClass, latencyBound, interval);
                description = publication(descriptionName, ServiceClass.BE, null, Duration.ofNanos(descriptionEveryNanos));
                int largest = parts.stream().mapToInt(b -> b.length).max().orElse(0);
                declare.add(() -> declarations.declare(name, frameBytes, interval, serviceClass));
                declare.add(() -> declarations.declare(descriptionName, WireFormat.HEADER_LENGTH + largest,
                        Duration.ofNanos(descriptionEveryNanos), ServiceClass.BE));
            }
            List<PmuChannels.Channel> channels = mapping.channels() ? PmuChannels.of(name, pmu) : List.of();
            Publication[] channelPublications = new Publication[channels.size()];
            for (int c = 0; c < channels.size(); c++) {
                PmuChannels.Channel ch = channels.get(c);
                channelPublications[c] = publication(ch.variable(), serviceClass, latencyBound, interval);
                declare.add(() -> declarations.declare(ch.variable(), WireFormat.HEADER_LENGTH + Float.BYTES * ch.width(),
                        interval, serviceClass));
            }
            next.add(samples == null && channels.isEmpty() ? null
                    : new Pmu(samples, description, parts, pmu.configCount(), shaper, channels, channelPublications));
            LOG.info("device {}: PMU {} publishes {}", device, pmu.idCode(), mapping == Mapping.CHANNELS
                    ? channels.size() + " channels under " + name
                    : name + " (" + parts.size() + " description parts)"
                    + (channels.isEmpty() ? "" : " and " + channels.size() + " channels"));
        }
        pmus = next;
        declare.forEach(Runnable::run);
    }

    /** The publication of a variable at an interval: made the first time, the same one after. */
    private Publication publication(String name, ServiceClass c, Duration bound, Duration interval) {
        String key = name + " " + interval.toNanos();
        Publication p = publications.get(key);
        if (p == null) {
            if (publications.size() >= MAX_PUBLICATIONS) {
                throw new IllegalStateException("device " + device + " has made " + MAX_PUBLICATIONS
                        + " publications: its configurations keep renaming or re-timing its PMUs");
            }
            p = publisher.publication(VariableId.ofName(VariableName.of(name)), c, bound, interval);
            publications.put(key, p);
        }
        return p;
    }

    @Override
    public void data(DataFrameReader frame) {
        long time = PmuSample.sourceTimeNanos(frame.soc(), frame.fracSec(), frame.layout().timeBase());
        long now = mono.nanoTime();
        for (int p = 0; p < pmus.size(); p++) {
            Pmu pmu = pmus.get(p);
            if (pmu == null) {
                counters.add(DeviceCounter.UNPUBLISHABLE);
                continue;
            }
            for (int c = 0; c < pmu.channels.size(); c++) {
                int width = PmuChannels.values(pmu.channels.get(c), frame, p, values);
                pmu.channelPublications[c].publish(values, width, time);
            }
            if (pmu.samples == null) {
                continue;
            }
            int n = PmuSample.encode(frame, p, pmu.configCount, bufferView, 0);
            SourceShaper.Outcome o = pmu.shaper == null ? SourceShaper.Outcome.SEND : pmu.shaper.offer(buffer, n, time, now);
            switch (o) {
                case SEND -> pmu.samples.publish(buffer, 0, n, time);
                case QUEUED -> {
                    counters.add(DeviceCounter.SHAPING_DELAYED);
                    drainBy(pmu.shaper.nextDeparture(), now);
                }
                case DROPPED -> counters.add(DeviceCounter.SHAPING_DROPPED);
            }
            // paced by the gateway's monotonic clock, not the PMU's: a PMU clock stepped back must not
            // stop the descriptions a late subscriber waits for
            if (now - pmu.nextDescription >= 0) {
                byte[] part = pmu.parts.get(pmu.nextPart);
                pmu.description.publish(part, 0, part.length, time);
                pmu.nextPart = (pmu.nextPart + 1) % pmu.parts.size();
                pmu.nextDescription = now + descriptionEveryNanos;
            }
        }
    }

    /** Makes sure the shapers are drained by {@code at}: one scheduled task, moved earlier if needed. */
    private void drainBy(long at, long now) {
        if (at >= drainAt) {
            return;
        }
        drainAt = at;
        scheduler.schedule(() -> drain(at), Math.max(0, at - now));
    }

    private void drain(long scheduledAt) {
        if (scheduledAt != drainAt) {
            return; // a task for an earlier time replaced this one
        }
        drainAt = Long.MAX_VALUE;
        long now = mono.nanoTime();
        long next = Long.MAX_VALUE;
        for (Pmu pmu : pmus) {
            if (pmu != null && pmu.shaper != null) {
                pmu.shaper.drain(now, (payload, n, time) -> pmu.samples.publish(payload, 0, n, time));
                next = Math.min(next, pmu.shaper.nextDeparture());
            }
        }
        if (next != Long.MAX_VALUE) {
            drainBy(next, now);
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
