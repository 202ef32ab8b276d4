package org.gridstat.gui.view;

/**
 * How the UI thread keeps up, measured on it: the longest time between two frames (a stall of
 * the FX thread shows as a long gap), the longest repaint of a console pulse, and the oldest
 * figure a pulse showed (by the model's receipt times). Written on the FX thread; read anywhere.
 */
public final class PulseMeter {
    private long lastFrameNanos;
    private volatile long longestFrameGapNanos;
    private volatile long longestPulseNanos;
    private volatile long longestPulseGapNanos;
    private long lastPulseNanos;
    private volatile long pulses;
    private volatile long oldestShownMillis;
    private volatile long frames;

    void frame(long nowNanos) {
        if (lastFrameNanos != 0) {
            longestFrameGapNanos = Math.max(longestFrameGapNanos, nowNanos - lastFrameNanos);
        }
        lastFrameNanos = nowNanos;
        frames++;
    }

    void pulse(long startNanos, long endNanos, long shownAgeMillis) {
        if (lastPulseNanos != 0) {
            longestPulseGapNanos = Math.max(longestPulseGapNanos, startNanos - lastPulseNanos);
        }
        lastPulseNanos = startNanos;
        longestPulseNanos = Math.max(longestPulseNanos, endNanos - startNanos);
        oldestShownMillis = Math.max(oldestShownMillis, shownAgeMillis);
        pulses++;
    }

    /** Starts measuring afresh (the maxima only; counts go on). */
    public void reset() {
        longestFrameGapNanos = 0;
        longestPulseNanos = 0;
        longestPulseGapNanos = 0;
        oldestShownMillis = 0;
        lastFrameNanos = 0;
        lastPulseNanos = 0;
    }

    public long longestFrameGapNanos() {
        return longestFrameGapNanos;
    }

    /** The longest a pulse's repaint took on the FX thread. */
    public long longestPulseNanos() {
        return longestPulseNanos;
    }

    public long longestPulseGapNanos() {
        return longestPulseGapNanos;
    }

    /** The oldest flow figure any pulse showed: its age when shown. */
    public long oldestShownMillis() {
        return oldestShownMillis;
    }

    public long pulses() {
        return pulses;
    }

    public long frames() {
        return frames;
    }
}
