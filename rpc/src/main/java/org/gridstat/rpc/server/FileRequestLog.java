package org.gridstat.rpc.server;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RequestLog} in one append-only file, forced to the disk after each record:
 * {@code u8 kind (1 accepted, 2 reply, 3 post) · u64 session · u64 request id ·} then for
 * accepted {@code i64 expiry (epoch ns)}, else {@code u16 length · bytes}. A record cut short by a
 * crash is ignored (its request never ran: the actuator runs only after its record is on disk).
 * Opening restores the entries and rewrites the file with the live ones only; after
 * {@link #COMPACT_AFTER} records it is rewritten again. Single-threaded (the server's thread).
 */
public final class FileRequestLog implements RequestLog {
    /** Records appended before the file is rewritten with the live entries only. */
    public static final int COMPACT_AFTER = 100_000;
    private static final int ACCEPTED = 1;
    private static final int REPLY = 2;
    private static final int POST = 3;

    private final Path file;
    private final java.util.function.LongSupplier epochClock;
    private FileChannel channel;
    private final Map<Key, Entry> live = new LinkedHashMap<>();
    private int appended;

    private record Key(long session, long requestId) {
    }

    private FileRequestLog(Path file, java.util.function.LongSupplier epochClock) {
        this.file = file;
        this.epochClock = epochClock;
    }

    /**
     * Opens (creating) the log at {@code file}; call {@link #restore} next.
     *
     * @param epochClock tells which entries have expired when the file is rewritten
     */
    public static FileRequestLog open(Path file, java.util.function.LongSupplier epochClock) throws IOException {
        FileRequestLog log = new FileRequestLog(file, epochClock);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        if (Files.exists(file)) {
            log.read();
        }
        return log;
    }

    private void read() throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw))) {
            while (true) {
                int kind;
                try {
                    kind = in.readUnsignedByte();
                } catch (EOFException end) {
                    return;
                }
                try {
                    long session = in.readLong();
                    long id = in.readLong();
                    Key k = new Key(session, id);
                    if (kind == ACCEPTED) {
                        live.put(k, new Entry(session, id, in.readLong(), null, null));
                    } else if (kind == REPLY || kind == POST) {
                        byte[] bytes = new byte[in.readUnsignedShort()];
                        in.readFully(bytes);
                        Entry e = live.get(k);
                        if (e != null) {
                            live.put(k, kind == REPLY ? new Entry(session, id, e.expiresEpochNanos(), bytes, e.post())
                                    : new Entry(session, id, e.expiresEpochNanos(), e.reply(), bytes));
                        }
                    } else {
                        return; // not ours past here: what came before stands
                    }
                } catch (EOFException cut) {
                    return; // the last record was cut short by a crash
                }
            }
        }
    }

    @Override
    public List<Entry> restore(long nowEpochNanos) throws IOException {
        live.values().removeIf(e -> e.expiresEpochNanos() <= nowEpochNanos);
        rewrite();
        return new ArrayList<>(live.values());
    }

    private void rewrite() throws IOException {
        if (channel != null) {
            channel.close();
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (Entry e : live.values()) {
                write(out, ACCEPTED, e.session(), e.requestId(), e.expiresEpochNanos(), null);
                if (e.reply() != null) {
                    write(out, REPLY, e.session(), e.requestId(), 0, e.reply());
                }
                if (e.post() != null) {
                    write(out, POST, e.session(), e.requestId(), 0, e.post());
                }
            }
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        appended = 0;
    }

    private static void write(FileChannel out, int kind, long session, long id, long expiry, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 + 16 + (bytes == null ? 8 : 2 + bytes.length));
        b.put((byte) kind).putLong(session).putLong(id);
        if (bytes == null) {
            b.putLong(expiry);
        } else {
            b.putShort((short) bytes.length).put(bytes);
        }
        b.flip();
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    private void append(int kind, long session, long id, long expiry, byte[] bytes) throws IOException {
        long nowEpochNanos = epochClock.getAsLong();
        if (channel == null) {
            restore(nowEpochNanos);
        }
        write(channel, kind, session, id, expiry, bytes);
        channel.force(false);
        if (++appended >= COMPACT_AFTER) {
            live.values().removeIf(e -> e.expiresEpochNanos() <= nowEpochNanos);
            rewrite();
        }
    }

    /**
     * @throws IOException also when the log holds the request already (a server started on the log
     *                     without {@link #restore}, or a replay the server no longer remembers): it
     *                     may have run, and is not accepted again
     */
    @Override
    public void accepted(long session, long requestId, long expiresEpochNanos) throws IOException {
        Key k = new Key(session, requestId);
        if (live.containsKey(k)) {
            throw new IOException("request " + requestId + " of session " + Long.toHexString(session)
                    + " was accepted before (was the log restored?); it is not accepted again");
        }
        live.put(k, new Entry(session, requestId, expiresEpochNanos, null, null));
        try {
            append(ACCEPTED, session, requestId, expiresEpochNanos, null);
        } catch (IOException e) {
            live.remove(k); // refused, so never run: a retry may be accepted
            throw e;
        }
    }

    @Override
    public void answered(long session, long requestId, byte[] reply) throws IOException {
        Key k = new Key(session, requestId);
        Entry e = live.get(k);
        if (e != null) {
            live.put(k, new Entry(session, requestId, e.expiresEpochNanos(), reply, e.post()));
            append(REPLY, session, requestId, 0, reply);
        }
    }

    @Override
    public void posted(long session, long requestId, byte[] post) throws IOException {
        Key k = new Key(session, requestId);
        Entry e = live.get(k);
        if (e != null) {
            live.put(k, new Entry(session, requestId, e.expiresEpochNanos(), e.reply(), post));
            append(POST, session, requestId, 0, post);
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    @Override
    public String toString() {
        return "request log " + file;
    }

    /** For tests: how the file reads back now. */
    static List<Entry> readBack(Path file) throws IOException {
        FileRequestLog l = new FileRequestLog(file, () -> Long.MIN_VALUE);
        l.read();
        return new ArrayList<>(l.live.values());
    }
}
