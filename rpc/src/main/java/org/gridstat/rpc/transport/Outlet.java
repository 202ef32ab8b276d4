package org.gridstat.rpc.transport;

/**
 * Where a 2WoPS endpoint's frames go: the publication of its outgoing variable admitted with
 * {@code paths} disjoint paths. A binding without a publication of exactly that many paths uses
 * the one with the most paths below it (and says so in its configuration's documentation).
 */
@FunctionalInterface
public interface Outlet {
    /** Publishes {@code length} bytes of {@code frame} from 0, now; the array is the endpoint's no longer. */
    void publish(int paths, byte[] frame, int length);
}
