package org.gridstat.gateway.c37118.framing;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import org.gridstat.gateway.c37118.frame.CommonHeader;
import org.gridstat.gateway.c37118.frame.FrameChecksum;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.gridstat.gateway.c37118.frame.FrameType;

/**
 * Cuts a byte stream (one TCP connection) into frames. Chunks of any size go in; each whole
 * frame, checked for sync, version, FRAMESIZE and CRC, comes out to the handler, in order.
 *
 * <p>A candidate that fails (a reserved frame type, an unsupported version, a FRAMESIZE under 16
 * or over the maximum, a bad CRC) is dropped one byte at a time: the scan resumes at the next
 * 0xAA after its first byte, so a good frame that started inside a damaged one is still found.
 * Bytes that cannot start a frame are skipped and counted; a run of them counts one BAD_SYNC.
 * Memory is one buffer of the maximum frame size, whatever FRAMESIZE claims; nothing is thrown.
 * One framer per connection, one thread at a time.
 */
public final class StreamFramer {
    private final FrameHandler handler;
    private final int maxFrameSize;
    private final byte[] buffer;
    private final ByteBuffer view;
    private final long[] rejects = new long[FrameReject.values().length];
    private int start;
    private int end;
    private boolean resynchronising;
    private long frames;
    private long bytesIn;
    private long bytesSkipped;

    public StreamFramer(FrameHandler handler) {
        this(handler, CommonHeader.MAX_FRAME_SIZE);
    }

    /** @param maxFrameSize the largest FRAMESIZE accepted, 16 to 65,535 */
    public StreamFramer(FrameHandler handler, int maxFrameSize) {
        if (maxFrameSize < CommonHeader.MIN_FRAME_SIZE || maxFrameSize > CommonHeader.MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maximum frame size must be 16 to 65535: " + maxFrameSize);
        }
        this.handler = handler;
        this.maxFrameSize = maxFrameSize;
        this.buffer = new byte[maxFrameSize];
        this.view = ByteBuffer.wrap(buffer).asReadOnlyBuffer();
    }

    /** Takes the chunk's remaining bytes, advancing its position to its limit. */
    public void accept(ByteBuffer chunk) {
        while (chunk.hasRemaining()) {
            int n = room(chunk.remaining());
            chunk.get(buffer, end, n);
            end += n;
            bytesIn += n;
            drain();
        }
    }

    public void accept(byte[] chunk, int offset, int length) {
        while (length > 0) {
            int n = room(length);
            System.arraycopy(chunk, offset, buffer, end, n);
            end += n;
            bytesIn += n;
            offset += n;
            length -= n;
            drain();
        }
    }

    /** The stream ended: a partial frame left over is dropped as truncated. */
    public void endOfStream() {
        if (end > start) {
            reject(FrameReject.TRUNCATED, end - start);
        }
        start = end = 0;
        resynchronising = false;
    }

    private int room(int wanted) {
        if (end == buffer.length) {
            // drain() left less than one frame, so moving it down always makes room.
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        return Math.min(wanted, buffer.length - end);
    }

    private void drain() {
        while (end > start) {
            if ((buffer[start] & 0xFF) != CommonHeader.SYNC_LEAD) {
                skipToSync();
                continue;
            }
            if (end - start < 2) {
                break;
            }
            FrameReject sync = CommonHeader.checkSync(buffer[start], buffer[start + 1]);
            if (sync != FrameReject.NONE) {
                dropCandidate(sync);
                continue;
            }
            if (end - start < 4) {
                break;
            }
            int size = (buffer[start + 2] & 0xFF) << 8 | (buffer[start + 3] & 0xFF);
            if (size < CommonHeader.MIN_FRAME_SIZE || size > maxFrameSize) {
                dropCandidate(FrameReject.BAD_LENGTH);
                continue;
            }
            if (end - start < size) {
                break;
            }
            int crc = (buffer[start + size - 2] & 0xFF) << 8 | (buffer[start + size - 1] & 0xFF);
            if (FrameChecksum.compute(buffer, start, size - 2) != crc) {
                dropCandidate(FrameReject.BAD_CRC);
                continue;
            }
            int at = start;
            start += size;
            frames++;
            resynchronising = false;
            handler.onFrame(FrameType.ofCode((buffer[at + 1] >>> 4) & 0x07), view, at, size);
        }
        if (start == end) {
            start = end = 0;
        }
    }

    private void skipToSync() {
        int i = start;
        while (i < end && (buffer[i] & 0xFF) != CommonHeader.SYNC_LEAD) {
            i++;
        }
        int skipped = i - start;
        start = i;
        bytesSkipped += skipped;
        if (!resynchronising) {
            resynchronising = true;
            count(FrameReject.BAD_SYNC, skipped);
        }
    }

    private void dropCandidate(FrameReject reason) {
        start++;
        resynchronising = true;
        reject(reason, 1);
    }

    private void reject(FrameReject reason, int bytes) {
        bytesSkipped += bytes;
        count(reason, bytes);
    }

    private void count(FrameReject reason, int bytes) {
        rejects[reason.ordinal()]++;
        handler.onReject(reason, bytes);
    }

    /** Whole frames handed to the handler. */
    public long frames() {
        return frames;
    }

    public long bytesIn() {
        return bytesIn;
    }

    /** Bytes dropped: garbage, damaged candidates, a partial frame at the end of the stream. */
    public long bytesSkipped() {
        return bytesSkipped;
    }

    /** Bytes held waiting for the rest of a frame. */
    public int buffered() {
        return end - start;
    }

    public long rejects(FrameReject reason) {
        return rejects[reason.ordinal()];
    }

    /** A snapshot of the rejection counts by reason, for reporting. */
    public Map<FrameReject, Long> rejectCounts() {
        Map<FrameReject, Long> m = new EnumMap<>(FrameReject.class);
        for (FrameReject r : FrameReject.values()) {
            if (rejects[r.ordinal()] > 0) {
                m.put(r, rejects[r.ordinal()]);
            }
        }
        return m;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }
}
