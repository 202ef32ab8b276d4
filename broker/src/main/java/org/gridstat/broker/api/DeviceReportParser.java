package org.gridstat.broker.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.gridstat.broker.topology.Names;
import org.gridstat.core.management.DeviceDocument;
import org.gridstat.core.management.GatewayReportDocument;
import org.gridstat.core.management.StatDocument;
import org.gridstat.core.management.TimeQualityDocument;

/**
 * Validates a gateway's device report before anything of it is kept: every field in range, every
 * string bounded, the decoded STAT bits agreeing with the word they claim to decode. The result is
 * the report or a {@link RequestParser.BadRequest} naming each field at fault (the first
 * {@value #MAX_PROBLEMS_LISTED}; a report of a thousand bad devices does not make a megabyte of
 * error).
 */
final class DeviceReportParser {
    /** The most counters (or rejects) one device may report: the gateway keeps about twenty. */
    static final int MAX_COUNTERS = 64;
    static final int MAX_COUNTER_NAME = 64;
    private static final int MAX_PROBLEMS_LISTED = 20;
    private static final Pattern COUNTER_NAME = Pattern.compile("[A-Z][A-Z0-9_]{0," + (MAX_COUNTER_NAME - 1) + "}");

    private DeviceReportParser() {
    }

    /** The gateway id of the path, checked by the topology's name rule. */
    static String gatewayId(String id) {
        if (!Names.valid(id)) {
            throw new RequestParser.BadRequest("the gateway id must be " + Names.rule() + ", got "
                    + (id == null ? "nothing" : RequestLimits.shown(id)));
        }
        return id;
    }

    static GatewayReportDocument report(byte[] body) {
        GatewayReportDocument r = RequestParser.read(body, GatewayReportDocument.class);
        List<String> problems = new ArrayList<>();
        if (r.periodMs() == null) {
            problems.add("periodMs is required");
        } else if (r.periodMs() < GatewayReportDocument.MIN_PERIOD_MS || r.periodMs() > GatewayReportDocument.MAX_PERIOD_MS) {
            problems.add("periodMs must be " + GatewayReportDocument.MIN_PERIOD_MS + ".."
                    + GatewayReportDocument.MAX_PERIOD_MS + ", got " + r.periodMs());
        }
        if (r.devices() == null) {
            problems.add("devices is required (an empty list if the gateway reads none)");
        } else if (r.devices().size() > GatewayReportDocument.MAX_DEVICES) {
            problems.add("a gateway may report at most " + GatewayReportDocument.MAX_DEVICES + " devices, got "
                    + r.devices().size());
        } else {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < r.devices().size(); i++) {
                device(r.devices().get(i), "devices[" + i + "]", names, problems);
            }
        }
        if (!problems.isEmpty()) {
            String listed = String.join("; ", problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS_LISTED)));
            throw new RequestParser.BadRequest(problems.size() <= MAX_PROBLEMS_LISTED ? listed
                    : listed + "; and " + (problems.size() - MAX_PROBLEMS_LISTED) + " more problems");
        }
        return r;
    }

    private static void device(DeviceDocument d, String at, Set<String> names, List<String> problems) {
        if (d == null) {
            problems.add(at + " must be an object, got null");
            return;
        }
        if (d.name() == null) {
            problems.add(at + ".name is required");
        } else if (!Names.valid(d.name())) {
            problems.add(at + ".name must be " + Names.rule() + ", got " + RequestLimits.shown(d.name()));
        } else if (!names.add(d.name())) {
            problems.add(at + ".name '" + d.name() + "' names another device of the report too");
        }
        oneOf(d.state(), DeviceDocument.STATES, at + ".state", problems);
        oneOf(d.health(), DeviceDocument.HEALTHS, at + ".health", problems);
        range(d.configCount(), 0, 0xFFFF, false, at + ".configCount", problems);
        range(d.pmus(), 0, 0xFFFF, true, at + ".pmus", problems);
        range(d.dataRateHz(), Short.MIN_VALUE, Short.MAX_VALUE, true, at + ".dataRateHz", problems);
        if (d.stat() != null) {
            stat(d.stat(), at + ".stat", problems);
        }
        if (d.timeQuality() != null) {
            timeQuality(d.timeQuality(), at + ".timeQuality", problems);
        }
        if (d.lastDataAgeMs() != null && d.lastDataAgeMs() < 0) {
            problems.add(at + ".lastDataAgeMs must not be negative, got " + d.lastDataAgeMs());
        }
        if (d.counters() == null) {
            problems.add(at + ".counters is required ({} if every counter is 0)");
        } else {
            counters(d.counters(), at + ".counters", problems);
        }
        if (d.rejects() != null) {
            counters(d.rejects(), at + ".rejects", problems);
        }
    }

    private static void stat(StatDocument s, String at, List<String> problems) {
        if (s.word() == null || s.word() < 0 || s.word() > 0xFFFF) {
            problems.add(at + ".word must be 0..65535, got " + s.word());
        } else if (!s.equals(StatDocument.of(s.word()))) {
            problems.add(at + ": the fields given do not decode word " + s.word() + " (0x"
                    + Integer.toHexString(s.word()) + "): expected " + StatDocument.of(s.word()));
        }
    }

    private static void timeQuality(TimeQualityDocument q, String at, List<String> problems) {
        range(q.code(), 0, 15, true, at + ".code", problems);
        if (q.leapPending() == null || q.leapOccurred() == null || q.leapDelete() == null) {
            problems.add(at + ": leapPending, leapOccurred and leapDelete are required");
        }
    }

    private static void counters(Map<String, Long> counters, String at, List<String> problems) {
        if (counters.size() > MAX_COUNTERS) {
            problems.add(at + " may hold at most " + MAX_COUNTERS + " entries, got " + counters.size());
            return;
        }
        for (Map.Entry<String, Long> e : counters.entrySet()) {
            if (!COUNTER_NAME.matcher(e.getKey()).matches()) {
                problems.add(at + ": a name must be 1.." + MAX_COUNTER_NAME + " capitals, digits and '_' starting with a"
                        + " capital, got " + RequestLimits.shown(e.getKey()));
            } else if (e.getValue() == null || e.getValue() < 0) {
                problems.add(at + "." + e.getKey() + " must be a count, 0 or more, got " + e.getValue());
            }
        }
    }

    private static void oneOf(String value, List<String> allowed, String at, List<String> problems) {
        if (value == null) {
            problems.add(at + " is required");
        } else if (!allowed.contains(value)) {
            problems.add(at + " must be one of " + String.join(", ", allowed) + ", got " + RequestLimits.shown(value));
        }
    }

    private static void range(Integer value, int min, int max, boolean required, String at, List<String> problems) {
        if (value == null) {
            if (required) {
                problems.add(at + " is required");
            }
        } else if (value < min || value > max) {
            problems.add(at + " must be " + min + ".." + max + ", got " + value);
        }
    }
}
