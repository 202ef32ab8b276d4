package org.gridstat.rpc.client;

import java.util.concurrent.CompletableFuture;

/**
 * One call in flight: its result, and separately its post-condition's report. Both futures are
 * completed in the client's thread, exactly once each.
 */
public final class Call {
    private final long requestId;
    private final CompletableFuture<CallResult> result = new CompletableFuture<>();
    private final CompletableFuture<PostResult> postcondition = new CompletableFuture<>();

    Call(long requestId) {
        this.requestId = requestId;
    }

    public long requestId() {
        return requestId;
    }

    public CompletableFuture<CallResult> result() {
        return result;
    }

    public CompletableFuture<PostResult> postcondition() {
        return postcondition;
    }
}
