package org.gridstat.htb;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tc -s class show dev X} for HTB classes, parsed: rates from tc's units (bit, Kbit, Mbit,
 * Gbit, Tbit, powers of 1000) to bytes per second.
 */
record TcClassShow(int minor, int parentMinor, Integer prio, long rate, long ceil, long bytes, long packets,
        long drops, long overlimits, long lends, long borrows) {

    private static final Pattern HEAD = Pattern.compile("class htb 1:([0-9a-f]+) (?:root|parent 1:([0-9a-f]+))"
            + "(?: leaf [0-9a-f]+:)?(?: prio (\\d+))? rate (\\S+) ceil (\\S+) .*");
    private static final Pattern SENT = Pattern.compile(
            "\\s*Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+), overlimits (\\d+) requeues \\d+\\)\\s*");
    private static final Pattern LENT = Pattern.compile("\\s*lended: (\\d+) borrowed: (\\d+) giants: \\d+\\s*");
    private static final Pattern RATE = Pattern.compile("(\\d+)([KMGT]?)bit");

    /** By minor. */
    static Map<Integer, TcClassShow> parse(String output) {
        Map<Integer, TcClassShow> classes = new TreeMap<>();
        for (String block : output.split("\\n\\s*\\n")) {
            String[] lines = block.strip().split("\\n");
            if (lines[0].isBlank()) {
                continue;
            }
            Matcher head = matchOrFail(HEAD, lines[0]);
            Matcher sent = matchOrFail(SENT, lines[1]);
            Matcher lent = null;
            for (String line : lines) {
                Matcher m = LENT.matcher(line);
                if (m.matches()) {
                    lent = m;
                }
            }
            if (lent == null) {
                throw new IllegalArgumentException("no lended/borrowed line in: " + block);
            }
            int minor = Integer.parseInt(head.group(1), 16);
            classes.put(minor, new TcClassShow(minor,
                    head.group(2) == null ? 0 : Integer.parseInt(head.group(2), 16),
                    head.group(3) == null ? null : Integer.valueOf(head.group(3)),
                    bytesPerSecond(head.group(4)), bytesPerSecond(head.group(5)),
                    Long.parseLong(sent.group(1)), Long.parseLong(sent.group(2)), Long.parseLong(sent.group(3)),
                    Long.parseLong(sent.group(4)), Long.parseLong(lent.group(1)), Long.parseLong(lent.group(2))));
        }
        return classes;
    }

    static long bytesPerSecond(String tcRate) {
        Matcher m = matchOrFail(RATE, tcRate);
        long bits = Long.parseLong(m.group(1));
        int power = m.group(2).isEmpty() ? 0 : "KMGT".indexOf(m.group(2)) + 1;
        for (int i = 0; i < power; i++) {
            bits *= 1000;
        }
        return bits / 8;
    }

    private static Matcher matchOrFail(Pattern p, String s) {
        Matcher m = p.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("tc printed \"" + s + "\", not " + p);
        }
        return m;
    }
}
