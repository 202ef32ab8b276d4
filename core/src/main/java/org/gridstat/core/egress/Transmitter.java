package org.gridstat.core.egress;

import org.gridstat.core.model.ServiceClass;

/**
 * Where an {@link EgressPump} puts what its link may send: a router's UDP socket, or a simulated
 * link. The pump decides which events share a datagram; the transmitter lays them out (a lone
 * event as it is, several as a batch) and sends them. Called on the data-path thread only.
 *
 * @param <E> the event type
 */
public interface Transmitter<E> {
    /** Whether a write now would be taken; when it turns true again the owner tells the agent. */
    boolean writable();

    /**
     * Which of the link's datagram streams a flow of {@code flowClass} travels on (a router sends
     * HRT and LRT to its neighbour's priority port); events of different lanes never share a
     * datagram. One lane, 0, unless the transmitter has more.
     */
    default int lane(ServiceClass flowClass) {
        return 0;
    }

    /** Adds one event to the datagram being built and takes over the caller's reference to it. */
    void write(E event);

    /** As {@link #write(Object)}, on {@code lane}; every event of one datagram has the same lane. */
    default void write(E event, int lane) {
        write(event);
    }

    /**
     * Ends the datagram being built: the events written since the last end leave as one datagram,
     * in the order written. The pump never ends an empty datagram.
     */
    default void endDatagram() {
    }

    /** Sends what was written since the last flush (one batch: sendmmsg under epoll). */
    void flush();
}
