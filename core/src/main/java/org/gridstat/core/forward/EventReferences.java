package org.gridstat.core.forward;

import org.gridstat.core.sched.EventReleaser;

/**
 * Reference counting of events shared between out-links: a multicast event is retained once per
 * out-link it is queued on, and each link releases its reference when it drops the event; the
 * sender releases it after sending.
 */
public interface EventReferences<E> extends EventReleaser<E> {
    void retain(E event);
}
