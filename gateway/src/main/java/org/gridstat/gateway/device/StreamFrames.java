package org.gridstat.gateway.device;

import java.util.List;
import org.gridstat.core.time.Clock;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.Config3FrameCodec;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.ConfigFrameCodec;
import org.gridstat.gateway.c37118.config.HeaderFrame;
import org.gridstat.gateway.c37118.config.HeaderFrameCodec;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.FracSec;
import org.gridstat.gateway.c37118.frame.FrameType;
import org.gridstat.gateway.c37118.frame.TimeBase;

/**
 * The served stream's configuration and header frames, encoded when asked and stamped with the
 * time they are sent: a client reads SOC/FRACSEC of a configuration frame as when it was issued.
 * The time quality byte is the one the stream's frame carries. Null when the stream has nothing.
 */
final class StreamFrames {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final ServedStream stream;
    private final Clock clock;

    StreamFrames(ServedStream stream, Clock clock) {
        this.stream = stream;
        this.clock = clock;
    }

    byte[] config1() {
        return config(stream.config1(), FrameType.CONFIG_1);
    }

    byte[] config2() {
        return config(stream.config2(), FrameType.CONFIG_2);
    }

    private byte[] config(ConfigFrame c, FrameType type) {
        if (c == null) {
            return null;
        }
        long now = clock.nanos();
        return ConfigFrameCodec.encode(new ConfigFrame(type, c.version(), c.idCode(), soc(now),
                fracSec(now, c.fracSec(), c.timeBase()), c.timeBase(), c.pmus(), c.dataRate()));
    }

    /** The CFG-3 in frames of at most {@code maxFrameSize} bytes, derived from CFG-2 when the stream has none. */
    List<byte[]> config3(int maxFrameSize) {
        Config3Frame c = stream.config3();
        if (c == null) {
            ConfigFrame cfg2 = stream.config2();
            if (cfg2 == null) {
                return null;
            }
            c = Config3FromConfig2.derive(cfg2);
        }
        long now = clock.nanos();
        return Config3FrameCodec.encodeFragments(new Config3Frame(c.version(), c.idCode(), soc(now),
                fracSec(now, c.fracSec(), c.timeBase()), c.timeBase(), c.pmus(), c.dataRate()), maxFrameSize);
    }

    byte[] header() {
        HeaderFrame h = stream.header();
        long now = clock.nanos();
        if (h == null) {
            ConfigFrame cfg2 = stream.config2();
            if (cfg2 == null) {
                return null;
            }
            return HeaderFrameCodec.encode(new HeaderFrame(cfg2.version(), cfg2.idCode(), soc(now),
                    fracSec(now, cfg2.fracSec(), cfg2.timeBase()), defaultText(cfg2)));
        }
        ConfigFrame cfg2 = stream.config2();
        int timeBase = cfg2 == null ? 1_000_000 : cfg2.timeBase();
        return HeaderFrameCodec.encode(new HeaderFrame(h.version(), h.idCode(), soc(now),
                fracSec(now, h.fracSec(), timeBase), h.text()));
    }

    private static String defaultText(ConfigFrame cfg2) {
        StringBuilder s = new StringBuilder("GridStat C37.118 stream ").append(cfg2.idCode()).append(": ")
                .append(cfg2.pmus().size()).append(cfg2.pmus().size() == 1 ? " PMU" : " PMUs");
        String sep = " (";
        for (PmuConfig p : cfg2.pmus()) {
            s.append(sep).append(p.station().trimmed().replaceAll("[^\\x20-\\x7E]", "?")).append(' ').append(p.idCode());
            sep = ", ";
        }
        if (!cfg2.pmus().isEmpty()) {
            s.append(')');
        }
        return s.append(", ").append(cfg2.dataRate()).append(" frames/s").toString();
    }

    private static long soc(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_SECOND);
    }

    /** FRACSEC for the instant: the given word's quality byte, the fraction in the configuration's TIME_BASE. */
    static int fracSec(long nanos, int qualityFrom, int timeBase) {
        long subdivision = TimeBase.subdivision(timeBase);
        long fraction = Math.floorMod(nanos, NANOS_PER_SECOND) * subdivision / NANOS_PER_SECOND;
        return FracSec.of(FracSec.timeQuality(qualityFrom), (int) fraction);
    }
}
