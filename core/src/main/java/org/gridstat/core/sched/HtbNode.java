package org.gridstat.core.sched;

import org.gridstat.core.time.Saturating;

/**
 * Token state of one HTB node: an exact {@linkplain TokenBucket token bucket} refilled at the rate
 * and one at the ceil, each up to its burst; a send charges both. The mode follows HTB: a node
 * whose rate bucket is not in debt may send on its own rate, one with only its ceil bucket out of
 * debt may borrow, one with neither waits. Every charge first refills for the time elapsed.
 */
final class HtbNode {
    static final int CAN_SEND = 0;
    static final int MAY_BORROW = 1;
    static final int CANT_SEND = 2;

    private long rate;
    private long ceil;
    private long depth;
    private long cdepth;
    private long tokens;
    private long ctokens;
    private long last;

    HtbNode(Shaping s, long now) {
        configure(s);
        tokens = depth;
        ctokens = cdepth;
        last = now;
    }

    /** New rates and bursts; call {@link #advance} first so the time before is refilled at the old rates. */
    void configure(Shaping s) {
        rate = TokenBucket.checkRate(s.rate());
        ceil = TokenBucket.checkRate(s.ceil());
        depth = TokenBucket.depth(s.burst());
        cdepth = TokenBucket.depth(s.cburst());
        tokens = Math.min(tokens, depth);
        ctokens = Math.min(ctokens, cdepth);
    }

    void advance(long now) {
        if (now > last) {
            long dt = Saturating.subtract(now, last);
            tokens = TokenBucket.refill(tokens, depth, dt, rate);
            ctokens = TokenBucket.refill(ctokens, cdepth, dt, ceil);
            last = now;
        }
    }

    int mode() {
        return tokens >= 0 ? CAN_SEND : ctokens >= 0 ? MAY_BORROW : CANT_SEND;
    }

    /** Charges a departure at {@code now}, after refilling up to then. */
    void charge(int bytes, long now) {
        advance(now);
        tokens = TokenBucket.charge(tokens, bytes);
        ctokens = TokenBucket.charge(ctokens, bytes);
    }

    /** Gives back bytes charged before (at most to full buckets), after refilling up to {@code now}. */
    void refund(int bytes, long now) {
        advance(now);
        tokens = Math.min(depth, TokenBucket.charge(tokens, -bytes));
        ctokens = Math.min(cdepth, TokenBucket.charge(ctokens, -bytes));
    }

    /** When the mode improves if nothing more is sent: {@link Long#MAX_VALUE} if never or already CAN_SEND. */
    long upgradeTime() {
        if (ctokens < 0) {
            return TokenBucket.readyTime(ctokens, last, ceil);
        }
        return tokens < 0 ? TokenBucket.readyTime(tokens, last, rate) : Long.MAX_VALUE;
    }
}
