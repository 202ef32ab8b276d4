package org.gridstat.rpc.server;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The server's memory of recent requests, which makes execution at-most-once: each accepted
 * request is kept, with its reply and post-condition report for replay, until it can no longer be
 * retried usefully (its deadline, its post-condition report and a grace have passed, on the
 * monotonic clock). When it is forgotten, its session's floor rises to its id: a request of that
 * session at or below the floor that is not remembered is refused as too old, whatever its
 * deadline claims and however the epoch clock steps.
 *
 * <p>Bounded: at most {@code maxEntries} requests and {@code maxSessions} sessions. A request
 * that would need more is refused as busy; nothing still retriable is ever forgotten to make
 * room. A session's floor is kept until {@code floorRetentionNanos} after its last request was
 * forgotten; a request of a session forgotten entirely falls back on its deadline (refused as
 * late once it passed). Single-threaded (the server's thread).
 */
final class RecentRequests {
    enum Admission { NEW, KNOWN, TOO_OLD, BUSY }

    /** One remembered request. */
    static final class Entry {
        final long session;
        final long requestId;
        long expiresAt;
        /** The digest of the request's bytes, which each of its tries repeats; {@code null} if restored from the log. */
        byte[] request;
        byte[] reply;
        byte[] post;

        Entry(long session, long requestId, long expiresAt) {
            this.session = session;
            this.requestId = requestId;
            this.expiresAt = expiresAt;
        }
    }

    private static final class Session {
        long floor = Long.MIN_VALUE;
        int live;
        long forgetAt;
    }

    private record Key(long session, long requestId) {
    }

    private final int maxEntries;
    private final int maxSessions;
    private final long floorRetentionNanos;
    private final Map<Key, Entry> entries = new HashMap<>();
    private final PriorityQueue<Entry> byExpiry = new PriorityQueue<>((a, b) -> Long.compare(a.expiresAt, b.expiresAt));
    private final Map<Long, Session> sessions = new HashMap<>();

    RecentRequests(int maxEntries, int maxSessions, long floorRetentionNanos) {
        if (maxEntries < 1 || maxSessions < 1) {
            throw new IllegalArgumentException("the table needs room for a request and a session");
        }
        this.maxEntries = maxEntries;
        this.maxSessions = maxSessions;
        this.floorRetentionNanos = floorRetentionNanos;
    }

    Entry find(long session, long requestId) {
        return entries.get(new Key(session, requestId));
    }

    /** What to do with a request arriving now (forgets what expired first). */
    Admission admit(long session, long requestId, long now) {
        expire(now);
        if (entries.containsKey(new Key(session, requestId))) {
            return Admission.KNOWN;
        }
        Session s = sessions.get(session);
        if (s != null && requestId <= s.floor) {
            return Admission.TOO_OLD;
        }
        if (entries.size() >= maxEntries || (s == null && sessions.size() >= maxSessions)) {
            return Admission.BUSY;
        }
        return Admission.NEW;
    }

    /** Remembers a request {@link #admit admitted} as new, until {@code expiresAt} at least. */
    Entry add(long session, long requestId, long expiresAt) {
        Entry e = new Entry(session, requestId, expiresAt);
        entries.put(new Key(session, requestId), e);
        byExpiry.add(e);
        Session s = sessions.computeIfAbsent(session, k -> new Session());
        s.live++;
        return e;
    }

    /** Keeps {@code e} at least until {@code at}. */
    void extend(Entry e, long at) {
        if (at > e.expiresAt) {
            byExpiry.remove(e);
            e.expiresAt = at;
            byExpiry.add(e);
        }
    }

    /**
     * A request refused without being remembered (the table is full, its log could not be
     * written): its session's floor rises to it, so no later copy or retry of it runs after the
     * caller was told it was refused. Returns false when the session has no record and no room
     * for one: then only its deadline stops a late copy.
     */
    boolean bar(long session, long requestId, long now) {
        Session s = sessions.get(session);
        if (s == null) {
            if (sessions.size() >= maxSessions) {
                return false;
            }
            s = new Session();
            sessions.put(session, s);
        }
        s.floor = Math.max(s.floor, requestId);
        s.forgetAt = Math.max(s.forgetAt, now + floorRetentionNanos);
        return true;
    }

    void expire(long now) {
        Entry e;
        while ((e = byExpiry.peek()) != null && e.expiresAt <= now) {
            byExpiry.poll();
            entries.remove(new Key(e.session, e.requestId));
            Session s = sessions.get(e.session);
            s.floor = Math.max(s.floor, e.requestId);
            s.live--;
            s.forgetAt = Math.max(s.forgetAt, now + floorRetentionNanos);
        }
        if (sessions.size() > maxSessions / 2) {
            sessions.values().removeIf(s -> s.live == 0 && s.forgetAt <= now);
        }
    }

    int size() {
        return entries.size();
    }

    int sessions() {
        return sessions.size();
    }
}
