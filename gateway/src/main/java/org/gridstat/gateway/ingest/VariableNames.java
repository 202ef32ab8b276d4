package org.gridstat.gateway.ingest;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridstat.core.model.VariableName;
import org.gridstat.gateway.c37118.config.PmuConfig;
import org.gridstat.gateway.c37118.frame.ChannelName;

/**
 * The status variables a device's PMUs become: {@code PREFIX/STATION} for each PMU's samples and
 * {@code PREFIX/STATION/description} for its configuration. STATION is the PMU's STN with the
 * spaces around it removed and any character a variable name cannot hold replaced by '_'; a blank
 * station, or one that another PMU of the stream already has, is named by its IDCODE
 * ({@code pmu-IDCODE}) instead, and {@code pmu-IDCODE-2}, {@code -3} ... if that is taken too.
 */
public final class VariableNames {
    public static final String DESCRIPTION = "description";
    /** The longest station segment: a 16-byte STN (every {@code pmu-IDCODE-k} is shorter). */
    public static final int MAX_STATION = 16;

    private VariableNames() {
    }

    /** The sample variables of a stream's PMUs, in configuration order. */
    public static List<String> samples(String prefix, List<PmuConfig> pmus) {
        Set<String> taken = new HashSet<>();
        return pmus.stream().map(p -> {
            String station = station(p);
            if (station.isEmpty() || !taken.add(station)) {
                String byId = "pmu-" + p.idCode();
                station = byId;
                for (int k = 2; !taken.add(station); k++) {
                    station = byId + "-" + k;
                }
            }
            return VariableName.of(prefix + "/" + station).toString();
        }).toList();
    }

    /** The description variable of a sample variable. */
    public static String description(String sampleVariable) {
        return sampleVariable + "/" + DESCRIPTION;
    }

    static String station(PmuConfig p) {
        return segment(p.station());
    }

    /** A 16-byte name as a name segment: the spaces around it removed, what a name cannot hold made '_'. */
    static String segment(ChannelName name) {
        String raw = new String(name.bytes(), StandardCharsets.ISO_8859_1).trim();
        StringBuilder b = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.');
            b.append(ok ? c : '_');
        }
        return b.toString();
    }
}
