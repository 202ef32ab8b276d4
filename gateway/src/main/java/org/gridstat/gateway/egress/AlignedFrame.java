package org.gridstat.gateway.egress;

import java.nio.ByteBuffer;

/**
 * One timestamp a {@link FrameAligner} releases: which slots have a sample and the sample bytes.
 * A view into the aligner's buffers, valid only during the {@link FrameAligner.ReleaseSink} call
 * it is handed to; the aligner reuses it.
 */
public final class AlignedFrame {
    private final FrameAligner aligner;
    private int entry;
    private long timeKey;
    private FrameAligner.Release cause;

    AlignedFrame(FrameAligner aligner) {
        this.aligner = aligner;
    }

    AlignedFrame set(int entry, long timeKey, FrameAligner.Release cause) {
        this.entry = entry;
        this.timeKey = timeKey;
        this.cause = cause;
        return this;
    }

    /** The {@link TimeKey} of the frame. */
    public long timeKey() {
        return timeKey;
    }

    /** Why the frame was released now. */
    public FrameAligner.Release cause() {
        return cause;
    }

    public int slotCount() {
        return aligner.slotCount();
    }

    public boolean present(int slot) {
        return aligner.present(entry, slot);
    }

    /** The slot's sample bytes (position 0, limit its length), or null when absent. */
    public ByteBuffer sample(int slot) {
        return aligner.sample(entry, slot);
    }
}
