package org.gridstat.node.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses in a HotSpot unified GC log ({@code -Xlog:gc:file=...}, default decorations): how a
 * bench sees the collections of a router in another process, a first suspect when a tail is long.
 */
final class GcLog {
    private static final Pattern PAUSE = Pattern.compile("^\\[([\\d.]+)s\\].*\\bGC\\(\\d+\\) (Pause .+?)(?: \\S*->\\S*)? ([\\d.]+)ms$");

    /** One pause: the JVM's uptime when it was logged, its kind and its length. */
    record Pause(double uptimeSeconds, String kind, double millis) {
    }

    private GcLog() {
    }

    static List<Pause> pauses(String log) {
        List<Pause> out = new ArrayList<>();
        for (String line : log.split("\\R")) {
            Matcher m = PAUSE.matcher(line.trim());
            if (m.find()) {
                out.add(new Pause(Double.parseDouble(m.group(1)), m.group(2).trim(), Double.parseDouble(m.group(3))));
            }
        }
        return out;
    }
}
