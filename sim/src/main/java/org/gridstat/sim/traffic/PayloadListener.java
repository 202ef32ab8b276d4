package org.gridstat.sim.traffic;

/**
 * An application at the end of a delivery link: handed each sample of one variable once (copies
 * from other paths dropped), with its payload, when it arrives.
 */
@FunctionalInterface
public interface PayloadListener {
    /**
     * A sample arrived now for the first time. The bytes are the arriving datagram's and are valid
     * during this call only: a listener that keeps the payload copies it.
     *
     * @param offset where the payload starts in {@code bytes}
     * @param length the payload's length
     */
    void received(long sequence, long sourceTimeNanos, byte[] bytes, int offset, int length);
}
