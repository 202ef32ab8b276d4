package org.gridstat.rpc.pubsub;

import java.util.concurrent.CompletableFuture;
import org.gridstat.rpc.client.CallResult;
import org.gridstat.rpc.client.PostResult;

/**
 * A call made through a {@link RatatoskrClient}: how it ended, and separately its post-condition's
 * report. Both complete in the client's agent thread (use the {@code ...Async} methods for work of
 * any length), or exceptionally if the call could not be made (a full queue, too many calls
 * outstanding, a request too large for one frame) or the client closed first.
 */
public record RemoteCall(CompletableFuture<CallResult> result, CompletableFuture<PostResult> postcondition) {
    RemoteCall() {
        this(new CompletableFuture<>(), new CompletableFuture<>());
    }

    /** The post-condition fails first, so a caller woken by the result sees both failed. */
    void fail(Throwable why) {
        postcondition.completeExceptionally(why);
        result.completeExceptionally(why);
    }

    boolean done() {
        return result.isDone() && postcondition.isDone();
    }
}
