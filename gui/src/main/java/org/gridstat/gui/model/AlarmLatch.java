package org.gridstat.gui.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Alarms latched until an operator acknowledges them, as an alarm handler does: an alarm of the
 * control plane's decisions latches when it first appears, stays latched (shown even after the
 * broker forgets it, after a restart say) until acknowledged, and latches again when it occurs
 * anew after the acknowledgement (the broker's count grows or its last-seen time moves). Noise
 * (INFO from the network) is listed but never latches. Acknowledgements are the console's own:
 * they are not sent to the broker. Used on the UI thread only.
 */
public final class AlarmLatch {
    /** An alarm as the console shows it. {@code present}: the broker still lists it. */
    public record Entry(Alarm alarm, boolean latched, boolean acknowledged, boolean present) {
        public String identity() {
            return alarm.identity();
        }
    }

    private static final class State {
        Alarm alarm;
        boolean latched;
        long acknowledgedCount = -1;
        Instant acknowledgedLastSeen;
        boolean present;
    }

    /**
     * Latched alarms the broker no longer lists, kept at most: an unattended console whose alarms'
     * messages change (figures in them) would otherwise grow all day. Beyond it the least recently
     * seen of them go, counted in {@link #evicted()}.
     */
    public static final int MAX_GONE_LATCHED = 1_000;

    private final Map<String, State> states = new LinkedHashMap<>();
    private long evicted;

    /** Takes the broker's current alarms. */
    public void update(List<Alarm> current) {
        Set<String> seen = new HashSet<>();
        for (Alarm a : current) {
            String id = a.identity();
            seen.add(id);
            State s = states.get(id);
            if (s == null) {
                s = new State();
                s.latched = a.decision();
                states.put(id, s);
            } else if (s.acknowledgedLastSeen != null && a.decision()
                    && (a.lastSeen().isAfter(s.acknowledgedLastSeen) || a.count() > s.acknowledgedCount)) {
                s.latched = true; // occurred again since it was acknowledged
                s.acknowledgedLastSeen = null;
                s.acknowledgedCount = -1;
            }
            s.alarm = a;
            s.present = true;
        }
        // an alarm the broker no longer lists stays while latched; acknowledged or noise, it goes
        states.values().removeIf(s -> {
            if (!seen.contains(s.alarm.identity())) {
                s.present = false;
                return !s.latched;
            }
            return false;
        });
        List<State> gone = new ArrayList<>();
        for (State s : states.values()) {
            if (!s.present && s.latched) {
                gone.add(s);
            }
        }
        if (gone.size() > MAX_GONE_LATCHED) {
            gone.sort(Comparator.comparing((State s) -> s.alarm.lastSeen()));
            for (State s : gone.subList(0, gone.size() - MAX_GONE_LATCHED)) {
                states.remove(s.alarm.identity());
                evicted++;
            }
        }
    }

    /** Latched alarms the broker no longer listed that were let go to keep {@link #MAX_GONE_LATCHED}. */
    public long evicted() {
        return evicted;
    }

    /** Acknowledges an alarm: it unlatches until it occurs again. False if no such alarm is shown. */
    public boolean acknowledge(String identity) {
        State s = states.get(identity);
        if (s == null) {
            return false;
        }
        s.latched = false;
        s.acknowledgedLastSeen = s.alarm.lastSeen();
        s.acknowledgedCount = s.alarm.count();
        if (!s.present) {
            states.remove(identity);
        }
        return true;
    }

    /** Every alarm shown: latched first, then by severity, then most recently seen first. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        for (State s : states.values()) {
            out.add(new Entry(s.alarm, s.latched, s.acknowledgedLastSeen != null, s.present));
        }
        out.sort(Comparator.comparing((Entry e) -> !e.latched())
                .thenComparing(e -> -severityRank(e.alarm().severity()))
                .thenComparing(e -> e.alarm().lastSeen(), Comparator.reverseOrder()));
        return out;
    }

    public int latchedCount() {
        int n = 0;
        for (State s : states.values()) {
            n += s.latched ? 1 : 0;
        }
        return n;
    }

    /** Latched alarms whose source is {@code source} (a router id): what the topology marks on it. */
    public int latchedAt(String source) {
        int n = 0;
        for (State s : states.values()) {
            n += s.latched && s.alarm.source().equals(source) ? 1 : 0;
        }
        return n;
    }

    public static int severityRank(String severity) {
        return switch (severity) {
            case "CRITICAL" -> 3;
            case "WARNING" -> 2;
            case "INFO" -> 1;
            default -> 0;
        };
    }
}
