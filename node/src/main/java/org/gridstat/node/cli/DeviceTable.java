package org.gridstat.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@code gridstat admin show devices}: the broker's {@code GET /devices} answer as a table, one
 * line per device of every gateway, the STAT and time-quality bits in words. Where a gateway has
 * stopped reporting, its devices' health reads {@code stale} (their figures are as last reported)
 * and a note under the table says for how long.
 */
final class DeviceTable {
    static final List<String> HEADER = List.of("GATEWAY", "DEVICE", "STATE", "HEALTH", "RATE", "CFGCNT", "TIME QUALITY",
            "STAT ERRORS", "DATA", "CRC", "MALFORMED", "LATE", "LAST DATA");
    /** Bits 3-0 of the time-quality byte: the clock's worst-case error (C37.118.2-2011 table 7). */
    private static final String[] QUALITY = {"locked", "<1ns", "<10ns", "<100ns", "<1us", "<10us", "<100us", "<1ms",
            "<10ms", "<100ms", "<1s", "<10s"};
    private static final String[] DATA_ERROR = {null, "PMU-ERROR", "TEST-MODE", "DO-NOT-USE"};
    private static final String[] UNLOCKED = {null, "UNLOCKED>10s", "UNLOCKED>100s", "UNLOCKED>1000s"};

    private DeviceTable() {
    }

    static String format(JsonNode gateways) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        List<String> notes = new ArrayList<>();
        for (JsonNode g : gateways) {
            boolean silent = g.path("stale").asBoolean();
            long reportAge = g.path("reportAgeMs").asLong();
            if (silent) {
                notes.add("gateway " + g.path("gateway").asText() + " has not reported for " + age(reportAge)
                        + " (every " + age(g.path("periodMs").asLong()) + " expected): its devices are shown as last reported");
            }
            if (g.path("devices").isEmpty()) {
                notes.add("gateway " + g.path("gateway").asText() + " reads no devices");
            }
            for (JsonNode d : g.path("devices")) {
                JsonNode counters = d.path("counters");
                JsonNode rejects = d.path("rejects");
                rows.add(List.of(g.path("gateway").asText(), d.path("name").asText(), d.path("state").asText(),
                        silent ? "stale" : d.path("health").asText(), rate(d.path("dataRateHz").asInt()),
                        d.has("configCount") ? d.get("configCount").asText() : "-", timeQuality(d.path("timeQuality")),
                        statErrors(d.path("stat")), String.valueOf(counters.path("DATA_FRAMES").asLong()),
                        String.valueOf(rejects.path("BAD_CRC").asLong()), String.valueOf(malformed(counters, rejects)),
                        String.valueOf(counters.path("DATA_STALE").asLong()),
                        d.has("lastDataAgeMs") ? age(d.get("lastDataAgeMs").asLong() + reportAge) + " ago" : "never"));
            }
        }
        StringBuilder out = new StringBuilder();
        if (rows.size() == 1) {
            out.append("no device reported: no gateway has reported to this broker in the last hour\n");
        } else {
            out.append(TextTable.columns(rows));
        }
        notes.forEach(n -> out.append(n).append('\n'));
        return out.toString();
    }

    /** C37.118's DATA_RATE: frames a second, or if negative seconds a frame. */
    static String rate(int dataRate) {
        return dataRate > 0 ? dataRate + "/s" : dataRate < 0 ? "1/" + -dataRate + "s" : "-";
    }

    static String timeQuality(JsonNode q) {
        if (q.isMissingNode() || q.isNull()) {
            return "-";
        }
        int code = q.path("code").asInt();
        String s = code < QUALITY.length ? QUALITY[code] : code == 15 ? "FAULT" : "code " + code;
        if (q.path("leapPending").asBoolean()) {
            s += " leap-pending";
        }
        if (q.path("leapOccurred").asBoolean()) {
            s += " leap-occurred";
        }
        return s;
    }

    /** The STAT bits that mean trouble or change, by name; {@code none} if the word has none, {@code -} before any data. */
    static String statErrors(JsonNode stat) {
        if (stat.isMissingNode() || stat.isNull()) {
            return "-";
        }
        List<String> bits = new ArrayList<>();
        String dataError = DATA_ERROR[stat.path("dataError").asInt() & 3];
        if (dataError != null) {
            bits.add(dataError);
        }
        if (stat.path("syncError").asBoolean()) {
            bits.add("SYNC");
        }
        String unlocked = UNLOCKED[stat.path("unlockedTime").asInt() & 3];
        if (unlocked != null) {
            bits.add(unlocked);
        }
        if (stat.path("configChange").asBoolean()) {
            bits.add("CFG-CHANGE");
        }
        if (stat.path("dataModified").asBoolean()) {
            bits.add("MODIFIED");
        }
        if (stat.path("trigger").asBoolean()) {
            bits.add("TRIGGER");
        }
        return bits.isEmpty() ? "none" : String.join(",", bits);
    }

    /** Frames refused for another reason than the CRC, and data frames that did not fit the configuration. */
    static long malformed(JsonNode counters, JsonNode rejects) {
        long n = counters.path("DATA_MISMATCH").asLong();
        for (Iterator<Map.Entry<String, JsonNode>> i = rejects.fields(); i.hasNext(); ) {
            Map.Entry<String, JsonNode> e = i.next();
            if (!e.getKey().equals("BAD_CRC")) {
                n += e.getValue().asLong();
            }
        }
        return n;
    }

    static String age(long ms) {
        if (ms < 1_000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        if (ms < 3_600_000) {
            return ms / 60_000 + "m" + ms % 60_000 / 1000 + "s";
        }
        return ms / 3_600_000 + "h" + ms % 3_600_000 / 60_000 + "m";
    }
}
