package org.gridstat.gateway.device;

import java.util.concurrent.atomic.LongAdder;

/** What a command acts on: a TCP client or a UDP peer. Called from the I/O thread. */
interface CommandPeer {
    /** DATA_ON (true) or DATA_OFF (false). */
    void data(boolean on);

    /**
     * Sends a whole frame answering a command, counting it in {@code sent} first (so a counter
     * read after the peer has the frame includes it); false if it was dropped for a full queue.
     */
    boolean answer(byte[] frame, LongAdder sent);

    /** The largest frame this peer's transport carries: a CFG-3 is split to fit. */
    int maxFrameSize();

    /** For log lines: the peer's remote address and transport. */
    String describe();

    RateLimitedWarning warnings();
}
