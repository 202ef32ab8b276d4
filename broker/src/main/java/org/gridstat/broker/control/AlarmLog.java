package org.gridstat.broker.control;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The broker's recent alarms for operators, typed and folded: an alarm that repeats (same source,
 * kind and subject) raises its count and last-seen time instead of taking another place. The
 * subject is what the alarm is about: the message itself unless the raiser names one (a flow whose
 * congestion alarm carries changing figures is one alarm, its message the latest).
 *
 * <p>Two bounded lists keep the control plane's own decisions (a router refusing an install, a
 * lost router) apart from network noise (malformed frames, protocol violations, peers' exception
 * texts), so a flood of noise can never push a real refusal out. Noise is also rate-limited by a
 * token bucket: what exceeds it is only counted. Each list evicts its least recently seen alarm
 * when full, counted in {@link #dropped}. Texts, which may come from the network, are stripped of
 * control and formatting characters and cut to a bounded length.
 */
public final class AlarmLog {
    /** Longest message kept, in characters. */
    public static final int MAX_MESSAGE = 240;
    /** Longest source kept, in characters. */
    public static final int MAX_SOURCE = 80;

    /** Whether an alarm is the control plane's own outcome or what a peer sent. */
    public enum Category {
        DECISION, NOISE
    }

    public enum Severity {
        INFO, WARNING, CRITICAL
    }

    /** What happened; each kind has one category and severity. */
    public enum Kind {
        /** A router refused a flow the broker sent it. */
        INSTALL_REFUSED(Category.DECISION, Severity.CRITICAL),
        /** A router's control session ended. */
        SESSION_LOST(Category.DECISION, Severity.WARNING),
        /**
         * A second control session for a router that is connected and alive, refused: two routers
         * configured with one identity, or a peer posing as one. Raised by router and folded by
         * router whatever the message, which names the session kept and the latest peer refused:
         * however many hosts try, one alarm per router, so they cannot push other decisions out.
         */
        DUPLICATE_ROUTER(Category.DECISION, Severity.CRITICAL, true),
        /**
         * A router's congestion control could not find the bandwidth an HRT flow's demand needs on
         * its link (no unreserved capacity, no victim above its minimum): raised when the router's
         * flow report first shows the shortfall, again after it was met.
         */
        CONGESTION_UNMET(Category.DECISION, Severity.CRITICAL),
        /** Global adaptation admitted a congested HRT flow's subscription at the rate it needs: new reservations. */
        ADAPTED(Category.DECISION, Severity.WARNING),
        /** Global adaptation found no path for what a congested HRT flow needs: it keeps its reservation, and says why. */
        ADAPTATION_REFUSED(Category.DECISION, Severity.CRITICAL),
        /** Anything else the control plane decided or observed. */
        GENERAL(Category.DECISION, Severity.WARNING),
        /** A control frame that does not decode. */
        MALFORMED_FRAME(Category.NOISE, Severity.INFO),
        /** A well-formed message out of order or from the wrong end. */
        PROTOCOL_VIOLATION(Category.NOISE, Severity.INFO),
        /** A Hello naming a router the topology lacks. */
        UNKNOWN_ROUTER(Category.NOISE, Severity.WARNING),
        /** A peer's connection failed with an exception. */
        PEER_ERROR(Category.NOISE, Severity.INFO);

        private final Category category;
        private final Severity severity;
        /** Folded by source alone, the message replaced by the latest. */
        private final boolean foldsBySource;

        Kind(Category category, Severity severity) {
            this(category, severity, false);
        }

        Kind(Category category, Severity severity, boolean foldsBySource) {
            this.category = category;
            this.severity = severity;
            this.foldsBySource = foldsBySource;
        }

        public Category category() {
            return category;
        }

        public Severity severity() {
            return severity;
        }
    }

    /**
     * One alarm, folded: how many times it was raised, first and last (ms since 1970).
     *
     * @param subject what it folds by beside its source and kind: the raiser's subject, or the message
     */
    public record Alarm(String source, Kind kind, String subject, String message, long count, long firstSeenMillis,
                        long lastSeenMillis) {
        public Category category() {
            return kind.category();
        }

        public Severity severity() {
            return kind.severity();
        }
    }

    private record Key(String source, Kind kind, String subject) {
    }

    private final int capacity;
    private final LongSupplier clockMillis;
    private final double noisePerMilli;
    private final double noiseBurst;
    private double noiseTokens;
    private long noiseRefilledAt;
    private long noiseSuppressed;
    /** Per category, by key, least recently seen first. */
    private final Map<Category, LinkedHashMap<Key, Alarm>> lists = new EnumMap<>(Category.class);
    private final Map<Category, Long> dropped = new EnumMap<>(Category.class);

    /** Keeps up to {@code capacity} alarms of each category, noise at most 10 a second (bursts of 20). */
    public AlarmLog(int capacity) {
        this(capacity, 10, 20, System::currentTimeMillis);
    }

    /**
     * @param capacity      alarms kept per category
     * @param noisePerSecond noise alarms recorded per second in the long run
     * @param noiseBurst    noise alarms recorded at once after a quiet spell
     * @param clockMillis   ms since 1970
     */
    public AlarmLog(int capacity, double noisePerSecond, int noiseBurst, LongSupplier clockMillis) {
        if (capacity < 1) {
            throw new IllegalArgumentException("alarm capacity must be positive");
        }
        if (!(noisePerSecond > 0) || noiseBurst < 1) {
            throw new IllegalArgumentException("the noise rate and burst must be positive");
        }
        this.capacity = capacity;
        this.clockMillis = clockMillis;
        this.noisePerMilli = noisePerSecond / 1000;
        this.noiseBurst = noiseBurst;
        this.noiseTokens = noiseBurst;
        this.noiseRefilledAt = clockMillis.getAsLong();
        for (Category c : Category.values()) {
            lists.put(c, new LinkedHashMap<>());
            dropped.put(c, 0L);
        }
    }

    /** Raises a {@link Kind#GENERAL} alarm. */
    public void raise(String source, String message) {
        raise(source, Kind.GENERAL, message);
    }

    /**
     * Records an alarm, or folds it into the same one seen before.
     *
     * @return false if it was noise over the rate limit and only counted, or folded into an alarm
     *         of a kind folded by source (already told)
     */
    public boolean raise(String source, Kind kind, String message) {
        return raise(source, kind, null, message);
    }

    /**
     * Records an alarm about {@code subject} (e.g. "flow 12"; {@code null}: the message is the
     * subject), or folds it into the one about the same subject seen before, its message replaced.
     *
     * @return as {@link #raise(String, Kind, String)}
     */
    public synchronized boolean raise(String source, Kind kind, String subject, String message) {
        long now = clockMillis.getAsLong();
        if (kind.category() == Category.NOISE && !takeNoiseToken(now)) {
            noiseSuppressed++;
            return false;
        }
        String text = clean(message, MAX_MESSAGE);
        Key key = new Key(clean(source, MAX_SOURCE), kind,
                kind.foldsBySource ? "" : subject == null ? text : clean(subject, MAX_MESSAGE));
        LinkedHashMap<Key, Alarm> list = lists.get(kind.category());
        Alarm before = list.remove(key); // re-inserted last: the list stays ordered by last seen
        if (before == null && list.size() == capacity) {
            Iterator<Key> oldest = list.keySet().iterator();
            oldest.next();
            oldest.remove();
            dropped.merge(kind.category(), 1L, Long::sum);
        }
        list.put(key, before == null ? new Alarm(key.source(), kind, key.subject(), text, 1, now, now)
                : new Alarm(key.source(), kind, key.subject(), text, before.count() + 1, before.firstSeenMillis(), now));
        return before == null || !kind.foldsBySource;
    }

    private boolean takeNoiseToken(long now) {
        if (now > noiseRefilledAt) {
            noiseTokens = Math.min(noiseBurst, noiseTokens + (now - noiseRefilledAt) * noisePerMilli);
        } else if (now < noiseRefilledAt) {
            noiseTokens = noiseBurst; // the wall clock was stepped back: the time passed is unknown, start afresh
        }
        noiseRefilledAt = now; // not the old high: that would suppress noise until the clock caught up
        if (noiseTokens < 1) {
            return false;
        }
        noiseTokens--;
        return true;
    }

    /**
     * A text fit to show: control and formatting characters (line breaks, bidirectional overrides)
     * become '?', and it is cut to {@code max} characters, the cut marked with "...".
     */
    static String clean(String text, int max) {
        String s = text == null ? "" : text;
        StringBuilder b = new StringBuilder(Math.min(s.length(), max + 2));
        int i = 0;
        while (i < s.length() && b.length() <= max) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            boolean unfit = Character.isISOControl(cp) || type == Character.FORMAT || type == Character.SURROGATE
                    || type == Character.UNASSIGNED || type == Character.PRIVATE_USE;
            if (unfit) {
                b.append('?');
            } else {
                b.appendCodePoint(cp);
            }
        }
        if (b.length() > max) {
            b.setLength(max - 3);
            if (Character.isHighSurrogate(b.charAt(b.length() - 1))) {
                b.setLength(b.length() - 1);
            }
            b.append("...");
        }
        return b.toString();
    }

    /** Every alarm kept, decisions then noise, each least recently seen first. */
    public synchronized List<Alarm> recent() {
        List<Alarm> out = new ArrayList<>();
        lists.values().forEach(l -> out.addAll(l.values()));
        return out;
    }

    /** The alarms kept of one category, least recently seen first. */
    public synchronized List<Alarm> recent(Category c) {
        return new ArrayList<>(lists.get(c).values());
    }

    /** Alarms evicted by newer ones, all categories. */
    public synchronized long dropped() {
        return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Alarms of a category evicted by newer ones. */
    public synchronized long dropped(Category c) {
        return dropped.get(c);
    }

    /** Noise alarms over the rate limit, counted and not kept. */
    public synchronized long noiseSuppressed() {
        return noiseSuppressed;
    }

    public int capacity() {
        return capacity;
    }
}
