package org.gridstat.core.egress;

/**
 * Where an {@link EgressPump} puts what its link may send: a router's UDP socket, or a simulated
 * link. Called on the data-path thread only.
 *
 * @param <E> the event type
 */
public interface Transmitter<E> {
    /** Whether a write now would be taken; when it turns true again the owner tells the agent. */
    boolean writable();

    /** Queues one event for sending and takes over the caller's reference to it. */
    void write(E event);

    /** Sends what was written since the last flush (one batch: sendmmsg under epoll). */
    void flush();
}
