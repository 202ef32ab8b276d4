package org.gridstat.broker.store;

import java.util.concurrent.CompletableFuture;

/**
 * Where a broker's decisions become durable before routers hear of them. Changes are recorded in
 * the order given and their futures complete in that order.
 */
@FunctionalInterface
public interface StateJournal {
    /** Keeps nothing: a broker whose state lives and dies with it (tests, throwaway setups). */
    StateJournal MEMORY_ONLY = change -> CompletableFuture.completedFuture(null);

    CompletableFuture<Void> record(StateChange change);
}
