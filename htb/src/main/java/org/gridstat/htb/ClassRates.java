package org.gridstat.htb;

/**
 * What an HTB class is given: its guaranteed rate, the ceiling it may borrow up to, the bursts it
 * may send at line speed above each, its priority when borrowing and its round-robin quantum.
 *
 * <p>The kernel keeps {@code prio} and {@code quantumBytes} only while a class is a leaf: it sets
 * them when a class is created or changed as a leaf and ignores them on a class that has children.
 *
 * @param rateBytesPerSecond the guaranteed rate, > 0; above 2<sup>32</sup>-1 B/s it is sent as a 64-bit rate
 * @param ceilBytesPerSecond the most the class may send, borrowing from its parent, >= the rate
 * @param burstBytes bytes the class may send at once when it has saved tokens at its rate, > 0
 * @param cburstBytes the same at its ceiling, > 0
 * @param prio 0 (served first when borrowing) to 7
 * @param quantumBytes bytes served per round among leaves of one priority; 0 derives it from the rate as
 *     HTB's r2q of 10 would (rate / 10) but kept within [{@value #MIN_DERIVED_QUANTUM}, {@value #MAX_DERIVED_QUANTUM}]
 */
public record ClassRates(long rateBytesPerSecond, long ceilBytesPerSecond, int burstBytes, int cburstBytes, int prio,
        int quantumBytes) {

    /** A full Ethernet frame: a smaller quantum makes HTB's round robin unfair. */
    public static final int MIN_DERIVED_QUANTUM = 1514;
    /** The largest quantum HTB derives itself. */
    public static final int MAX_DERIVED_QUANTUM = 200_000;
    public static final int MAX_PRIO = 7;

    public ClassRates {
        if (rateBytesPerSecond <= 0) {
            throw new IllegalArgumentException("rateBytesPerSecond must be above 0, not " + rateBytesPerSecond);
        }
        if (ceilBytesPerSecond < rateBytesPerSecond) {
            throw new IllegalArgumentException("ceilBytesPerSecond (" + ceilBytesPerSecond
                    + ") must not be below rateBytesPerSecond (" + rateBytesPerSecond + ")");
        }
        if (burstBytes <= 0) {
            throw new IllegalArgumentException("burstBytes must be above 0, not " + burstBytes);
        }
        if (cburstBytes <= 0) {
            throw new IllegalArgumentException("cburstBytes must be above 0, not " + cburstBytes);
        }
        if (prio < 0 || prio > MAX_PRIO) {
            throw new IllegalArgumentException("prio must be 0 to " + MAX_PRIO + ", not " + prio);
        }
        if (quantumBytes < 0) {
            throw new IllegalArgumentException("quantumBytes must be above 0 (or 0 to derive it), not " + quantumBytes);
        }
        if (quantumBytes == 0) {
            quantumBytes = (int) Math.max(MIN_DERIVED_QUANTUM, Math.min(MAX_DERIVED_QUANTUM, rateBytesPerSecond / 10));
        }
    }
}
