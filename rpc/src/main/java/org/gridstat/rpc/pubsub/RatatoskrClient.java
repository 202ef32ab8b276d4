package org.gridstat.rpc.pubsub;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.gridstat.rpc.client.Call;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.client.RpcClient;

/**
 * A Ratatoskr client on status routers, for an application that calls actuators: an
 * {@link RpcClient} on one 2WoPS connection, its requests published at its router and its replies
 * received at a delivery link, run by an {@link RpcAgent} of its own. Thread-safe: calls are
 * handed to the agent. A new client is a new session (calls of a previous one are not replayed).
 */
public final class RatatoskrClient implements AutoCloseable {
    private final RouterAttachment<RpcClient> attachment;
    /** Calls not yet ended or reported: failed on close. Bounded by the client's own bound and the queue's. */
    private final Set<RemoteCall> open = ConcurrentHashMap.newKeySet();

    private RatatoskrClient(RouterAttachment<RpcClient> attachment) {
        this.attachment = attachment;
    }

    /**
     * Connects: binds {@code listen} (the delivery link the routers send replies to) and publishes
     * requests at {@code router}.
     *
     * @param plan   the caller's side of the service ({@link TwoWayPlan#caller})
     * @param caller who calls, as the server's authorisation knows them
     */
    public static RatatoskrClient connect(TwoWayPlan plan, InetSocketAddress router, InetSocketAddress listen,
                                          String caller) {
        Objects.requireNonNull(caller, "caller");
        return new RatatoskrClient(new RouterAttachment<>("ratatoskr-client", plan, router, listen,
                c -> new RpcClient(c.endpoint(), c.agent(), RouterAttachment.newId(), caller)));
    }

    /**
     * Calls {@code operation} with {@code arguments} (Long, Double, Boolean or String each) as
     * {@code policy} says. Never blocks; a call that cannot be made fails its futures with the
     * reason ({@link RejectedExecutionException}, {@link IllegalStateException} for
     * {@value RpcClient#MAX_OUTSTANDING} calls outstanding, {@link IllegalArgumentException} for a
     * bad name or a request too large for one frame).
     */
    public RemoteCall call(String operation, List<Object> arguments, CallPolicy policy) {
        RemoteCall rc = new RemoteCall();
        open.add(rc);
        try {
            attachment.agent.execute(() -> {
                Call c;
                try {
                    c = attachment.protocol.call(operation, arguments, policy);
                } catch (RuntimeException e) {
                    fail(rc, e);
                    return;
                }
                c.result().whenComplete((r, e) -> {
                    rc.result().complete(r);
                    release(rc);
                });
                c.postcondition().whenComplete((r, e) -> {
                    rc.postcondition().complete(r);
                    release(rc);
                });
            });
        } catch (RejectedExecutionException e) {
            fail(rc, e);
        }
        return rc;
    }

    private void fail(RemoteCall rc, Throwable why) {
        rc.fail(why);
        open.remove(rc);
    }

    private void release(RemoteCall rc) {
        if (rc.done()) {
            open.remove(rc);
        }
    }

    /** Reads the client (its counters) in the agent's thread. */
    public <R> R read(Function<RpcClient, R> query) {
        return attachment.read(query);
    }

    /** Where the routers deliver replies. */
    public InetSocketAddress listenAddress() {
        return attachment.subscriber.localAddress();
    }

    /** What the delivery link's socket received: events handed on, copies from other paths discarded, gaps. */
    public org.gridstat.client.SubscriberStatistics delivery() {
        return attachment.subscriber.statistics();
    }

    public PubSubConnection connection() {
        return attachment.connection;
    }

    public RpcAgent agent() {
        return attachment.agent;
    }

    /** Stops; calls not ended fail with an {@link IllegalStateException}. */
    @Override
    public void close() {
        attachment.close();
        IllegalStateException closed = new IllegalStateException("the Ratatoskr client closed before the call ended");
        for (RemoteCall rc : open) {
            rc.fail(closed);
        }
        open.clear();
    }
}
