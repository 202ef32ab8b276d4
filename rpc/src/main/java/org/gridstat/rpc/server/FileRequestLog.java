package org.gridstat.rpc.server;

import java.io.DataInputStream;
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
import java.util.zip.CRC32C;
import org.gridstat.rpc.transport.TransportFrame;

/**
 * A {@link RequestLog} in one append-only file, forced to the disk after each record:
 * {@code u8 kind (1 accepted, 2 reply, 3 post) · u64 session · u64 request id ·} then for
 * accepted {@code i64 expiry (epoch ns)}, else {@code u16 length · bytes}, then the CRC-32C of the
 * record's bytes before it. A last record cut short or torn by a crash (or a zeroed tail) is
 * ignored (its request never ran: the actuator runs only after its record is on disk); a record
 * damaged before the end makes {@link #open} fail, since the requests after it may have run.
 * Opening restores the entries and rewrites the file with the live ones only; after
 * {@link #COMPACT_AFTER} records it is rewritten again. Single-threaded (the server's thread).
 */
public final class FileRequestLog implements RequestLog {
    /** Records appended before the file is rewritten with the live entries only. */
    public static final int COMPACT_AFTER = 100_000;
    private static final int ACCEPTED = 1;
    private static final int REPLY = 2;
    private static final int POST = 3;
    private static final int CRC_BYTES = 4;

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
     * @throws IOException also when a record before the end of the file is damaged: the server
     *                     must not start on a log it cannot trust
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
        long size = Files.size(file);
        CRC32C crc = new CRC32C();
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw))) {
            long at = 0;
            while (at < size) {
                int kind = in.readUnsignedByte();
                int head = kind == ACCEPTED ? 24 : kind == REPLY || kind == POST ? 18 : -1;
                if (head < 0) {
                    if (kind == 0 && zerosToTheEnd(in)) {
                        return; // a tail the file system left zeroed when a crash cut the last record
                    }
                    throw corrupt(at, "unknown record kind " + kind);
                }
                if (size - at < 1 + head) {
                    return; // the last record was cut short by a crash
                }
                byte[] record = new byte[1 + head];
                record[0] = (byte) kind;
                in.readFully(record, 1, head);
                ByteBuffer b = ByteBuffer.wrap(record, 1, head);
                long session = b.getLong();
                long id = b.getLong();
                long expiry = kind == ACCEPTED ? b.getLong() : 0;
                byte[] bytes = kind == ACCEPTED ? null : new byte[b.getShort() & 0xFFFF];
                if (bytes != null && bytes.length > TransportFrame.MAX_PAYLOAD) {
                    throw corrupt(at, "a message of " + bytes.length + " bytes");
                }
                long length = record.length + (bytes == null ? 0 : bytes.length) + CRC_BYTES;
                if (size - at < length) {
                    return; // the last record was cut short by a crash
                }
                if (bytes != null) {
                    in.readFully(bytes);
                }
                int stored = in.readInt();
                crc.reset();
                crc.update(record);
                if (bytes != null) {
                    crc.update(bytes);
                }
                if ((int) crc.getValue() != stored) {
                    if (at + length == size) {
                        return; // the last record, torn by a crash: its request never ran, or its reply is lost
                    }
                    throw corrupt(at, "checksum mismatch");
                }
                at += length;
                Key k = new Key(session, id);
                Entry e = live.get(k);
                if (kind == ACCEPTED) {
                    live.put(k, new Entry(session, id, expiry, null, null));
                } else if (e != null) {
                    live.put(k, kind == REPLY ? new Entry(session, id, e.expiresEpochNanos(), bytes, e.post())
                            : new Entry(session, id, e.expiresEpochNanos(), e.reply(), bytes));
                }
            }
        }
    }

    private static boolean zerosToTheEnd(InputStream in) throws IOException {
        int b;
        while ((b = in.read()) >= 0) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** A record damaged before the end: not a crash's doing. Requests after it may have run, so nothing is trusted. */
    private IOException corrupt(long at, String what) {
        return new IOException("request log " + file + " is corrupt at byte " + at + " (" + what + "); the requests after"
                + " it may have run and would run again, so the server must not start on it");
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
        forceDirectory(); // the rename itself must survive a crash, or the old file comes back
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        appended = 0;
    }

    private static void write(FileChannel out, int kind, long session, long id, long expiry, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 + 16 + (bytes == null ? 8 : 2 + bytes.length) + CRC_BYTES);
        b.put((byte) kind).putLong(session).putLong(id);
        if (bytes == null) {
            b.putLong(expiry);
        } else {
            b.putShort((short) bytes.length).put(bytes);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
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

    private void forceDirectory() {
        Path dir = file.toAbsolutePath().getParent();
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory for syncing; the rename stands as the OS keeps it
        }
    }
}
