package org.gridstat.node.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counters a router process logs as it stops ({@code router ID stopped; counters ...}): the
 * figures of a router in another process, read without a control channel. The line is the
 * router's {@code RouterCounters} text, so this reads any {@code key=number} pairs rather than a
 * fixed layout: a counter it does not find is absent, never a wrong number.
 */
final class RouterLog {
    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\d+)");

    private RouterLog() {
    }

    /** The last counters line of {@code log}, or null if the router did not log one. */
    static String countersLine(String log) {
        String found = null;
        for (String line : log.split("\\R")) {
            if (line.contains(" stopped; counters ")) {
                found = line;
            }
        }
        return found;
    }

    /** The counters of out-link {@code link} ({@code link NAME[key=n ...]}) in a counters line; empty if absent. */
    static Map<String, Long> link(String countersLine, String link) {
        String open = "link " + link + "[";
        int at = countersLine.indexOf(open);
        if (at < 0) {
            return Map.of();
        }
        int end = countersLine.indexOf(']', at);
        return pairs(countersLine.substring(at + open.length(), end < 0 ? countersLine.length() : end));
    }

    private static Map<String, Long> pairs(String text) {
        Map<String, Long> out = new LinkedHashMap<>();
        Matcher m = PAIR.matcher(text);
        while (m.find()) {
            out.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return out;
    }
}
