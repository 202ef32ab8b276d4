package org.gridstat.gateway.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.data.DataFrameReader;
import org.gridstat.gateway.c37118.frame.ChannelName;

/**
 * The channels of one PMU as status variables of their own, {@code PREFIX/STATION/CHANNEL}, each a
 * float vector in engineering units followed by the PMU's STAT word (so a subscriber of one value
 * still knows whether to trust it):
 * <ul>
 *   <li>a phasor: magnitude (V or A), angle (radians), STAT;
 *   <li>{@code FREQ}: the frequency in Hz, STAT; {@code DFREQ}: the ROCOF in Hz/s, STAT;
 *   <li>an analog: its value as scaled by the configuration, STAT;
 *   <li>a digital word ({@code DIGITAL1}, ...): the 16-bit word, STAT.
 * </ul>
 * CHANNEL is the CHNAM with the spaces around it removed and characters a name cannot hold
 * replaced by '_'; a blank, repeated or reserved one ({@code description}) gets its kind and
 * number ({@code PHASOR2}, {@code ANALOG1}) or a {@code -2} suffix.
 */
final class PmuChannels {
    /** The longest channel segment: a 16-byte CHNAM and a {@code -k} suffix. */
    static final int MAX_CHANNEL = 22;

    enum Kind { PHASOR, FREQ, DFREQ, ANALOG, DIGITAL }

    /** One channel: what it is, which one, and its variable. */
    record Channel(String variable, Kind kind, int index) {
        /** The floats its payload carries, STAT included. */
        int width() {
            return kind == Kind.PHASOR ? 3 : 2;
        }
    }

    private PmuChannels() {
    }

    static List<Channel> of(String pmuVariable, PmuConfig p) {
        Set<String> taken = new HashSet<>(Set.of(VariableNames.DESCRIPTION));
        List<Channel> out = new ArrayList<>();
        for (int i = 0; i < p.phasorCount(); i++) {
            out.add(new Channel(name(pmuVariable, p.phasorNames().get(i), "PHASOR" + (i + 1), taken), Kind.PHASOR, i));
        }
        out.add(new Channel(name(pmuVariable, null, "FREQ", taken), Kind.FREQ, 0));
        out.add(new Channel(name(pmuVariable, null, "DFREQ", taken), Kind.DFREQ, 0));
        for (int i = 0; i < p.analogCount(); i++) {
            out.add(new Channel(name(pmuVariable, p.analogNames().get(i), "ANALOG" + (i + 1), taken), Kind.ANALOG, i));
        }
        for (int w = 0; w < p.digitalCount(); w++) {
            out.add(new Channel(name(pmuVariable, null, "DIGITAL" + (w + 1), taken), Kind.DIGITAL, w));
        }
        return out;
    }

    /** Writes a channel's payload for {@code pmu} of a wrapped frame into {@code values}; answers its width. */
    static int values(Channel c, DataFrameReader frame, int pmu, float[] values) {
        float stat = frame.stat(pmu);
        switch (c.kind()) {
            case PHASOR -> {
                values[0] = (float) frame.phasorMagnitude(pmu, c.index());
                values[1] = (float) frame.phasorAngle(pmu, c.index());
                values[2] = stat;
            }
            case FREQ -> {
                values[0] = (float) frame.frequency(pmu);
                values[1] = stat;
            }
            case DFREQ -> {
                values[0] = (float) frame.rocof(pmu);
                values[1] = stat;
            }
            case ANALOG -> {
                values[0] = (float) frame.analog(pmu, c.index());
                values[1] = stat;
            }
            case DIGITAL -> {
                values[0] = frame.digital(pmu, c.index());
                values[1] = stat;
            }
        }
        return c.width();
    }

    private static String name(String pmuVariable, ChannelName given, String fallback, Set<String> taken) {
        String n = given == null ? "" : VariableNames.segment(given);
        if (n.isEmpty() || taken.contains(n)) {
            n = fallback;
        }
        String candidate = n;
        for (int k = 2; !taken.add(candidate); k++) {
            candidate = n + "-" + k;
        }
        return pmuVariable + "/" + candidate;
    }
}
