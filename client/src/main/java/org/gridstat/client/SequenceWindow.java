package org.gridstat.client;

/**
 * The sequence numbers of one variable seen lately, to deliver each once whatever the number of
 * paths it arrives on. A window of the last {@value #SIZE} sequences: a number seen again is a
 * duplicate; one that fills a hole is delivered late and closes the gap it had opened; one older
 * than the window cannot be told apart from a duplicate and is dropped as too late. A number at or
 * below the highest seen with a source time newer than any seen means the publisher restarted
 * (duplicates carry their original's time): the window starts over.
 */
public final class SequenceWindow {
    public static final int SIZE = 1024;
    private static final int WORDS = SIZE / 64;

    public enum Verdict { NEW, LATE_FILL, DUPLICATE, TOO_LATE }

    private final long[] seen = new long[WORDS];
    private long highest = -1;
    private long highestSourceTime = Long.MIN_VALUE;
    private long gaps;

    public Verdict accept(long sequence, long sourceTime) {
        // A copy from another path carries the original's source time; a sequence number at or below
        // the highest with a newer source time than any seen is a restarted publisher's new sample.
        if (highest < 0 || (sequence <= highest && sourceTime > highestSourceTime)) {
            java.util.Arrays.fill(seen, 0);
            highest = sequence;
            highestSourceTime = sourceTime;
            mark(sequence);
            return Verdict.NEW;
        }
        if (sequence > highest) {
            long step = sequence - highest;
            if (step >= SIZE) {
                java.util.Arrays.fill(seen, 0);
            } else {
                for (long s = highest + 1; s < sequence; s++) {
                    clear(s);
                }
            }
            gaps += step - 1;
            highest = sequence;
            highestSourceTime = Math.max(highestSourceTime, sourceTime);
            mark(sequence);
            return Verdict.NEW;
        }
        if (highest - sequence >= SIZE) {
            return Verdict.TOO_LATE;
        }
        if (isMarked(sequence)) {
            return Verdict.DUPLICATE;
        }
        mark(sequence);
        gaps--;
        return Verdict.LATE_FILL;
    }

    /** Sequence numbers skipped and not (yet) filled. */
    public long gaps() {
        return gaps;
    }

    private void mark(long s) {
        int bit = (int) (s & (SIZE - 1));
        seen[bit >>> 6] |= 1L << (bit & 63);
    }

    private void clear(long s) {
        int bit = (int) (s & (SIZE - 1));
        seen[bit >>> 6] &= ~(1L << (bit & 63));
    }

    private boolean isMarked(long s) {
        int bit = (int) (s & (SIZE - 1));
        return (seen[bit >>> 6] & (1L << (bit & 63))) != 0;
    }
}
