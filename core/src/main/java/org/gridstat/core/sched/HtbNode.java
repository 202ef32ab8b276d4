package org.gridstat.core.sched;

/**
 * Token state of one HTB node. {@code tokens} refill at the rate, {@code ctokens} at the ceil, each
 * up to its burst; a send charges both and may drive them negative. The mode follows HTB: a node
 * with tokens may send on its own rate, one with only ctokens may borrow, one with neither waits.
 */
final class HtbNode {
    static final int CAN_SEND = 0;
    static final int MAY_BORROW = 1;
    static final int CANT_SEND = 2;

    private static final double NANOS = 1e9;

    private double rate;
    private double ceil;
    private double burst;
    private double cburst;
    private double tokens;
    private double ctokens;
    private long last;

    HtbNode(Shaping s, long now) {
        configure(s);
        tokens = burst;
        ctokens = cburst;
        last = now;
    }

    void configure(Shaping s) {
        rate = s.rate() / NANOS;
        ceil = s.ceil() / NANOS;
        burst = s.burst();
        cburst = s.cburst();
        tokens = Math.min(tokens, burst);
        ctokens = Math.min(ctokens, cburst);
    }

    void advance(long now) {
        long dt = now - last;
        if (dt > 0) {
            tokens = Math.min(burst, tokens + dt * rate);
            ctokens = Math.min(cburst, ctokens + dt * ceil);
            last = now;
        }
    }

    int mode() {
        return tokens >= 0 ? CAN_SEND : ctokens >= 0 ? MAY_BORROW : CANT_SEND;
    }

    void charge(int bytes) {
        tokens -= bytes;
        ctokens -= bytes;
    }

    /** When the mode improves if nothing more is sent: {@link Long#MAX_VALUE} if never or already CAN_SEND. */
    long upgradeTime(long now) {
        double deficit;
        double speed;
        if (ctokens < 0) {
            deficit = -ctokens;
            speed = ceil;
        } else if (tokens < 0) {
            deficit = -tokens;
            speed = rate;
        } else {
            return Long.MAX_VALUE;
        }
        if (speed <= 0) {
            return Long.MAX_VALUE;
        }
        return now + Math.max(1, (long) Math.ceil(deficit / speed));
    }
}
