package org.gridstat.rpc.pubsub;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.function.Function;
import org.gridstat.core.time.SystemClock;
import org.gridstat.rpc.condition.LatestValues;
import org.gridstat.rpc.server.Authorisation;
import org.gridstat.rpc.server.Operation;
import org.gridstat.rpc.server.RequestLog;
import org.gridstat.rpc.server.RpcServer;
import org.gridstat.rpc.server.ServerSettings;

/**
 * A Ratatoskr server on status routers, for an application that exports actuators: an
 * {@link RpcServer} on one 2WoPS connection, its requests received at a delivery link and its
 * replies published at its router, run by an {@link RpcAgent} of its own. The status variables its
 * operations' conditions read are followed as they are exported: their samples, delivered to the
 * same socket (subscribe them there through the broker), feed the server's {@link LatestValues}.
 *
 * <p>Actuators run in the agent's thread: one that blocks holds up every other request and
 * timer. The request log stays the caller's to close.
 */
public final class RatatoskrServer implements AutoCloseable {
    /** Status variables the server's conditions may read at most. */
    public static final int MAX_STATUS_VARIABLES = 1024;

    private final RouterAttachment<RpcServer> attachment;
    private final LatestValues status;
    private final StatusFeed feed;

    private RatatoskrServer(RouterAttachment<RpcServer> attachment, LatestValues status) {
        this.attachment = attachment;
        this.status = status;
        this.feed = new StatusFeed(status, attachment.dispatch);
    }

    /** Starts a server with the default memory of requests ({@link ServerSettings#DEFAULT}). */
    public static RatatoskrServer start(TwoWayPlan plan, InetSocketAddress router, InetSocketAddress listen,
                                        Authorisation authorisation, RequestLog log) throws IOException {
        return start(plan, router, listen, authorisation, log, ServerSettings.DEFAULT);
    }

    /**
     * Starts a server: binds {@code listen} (the delivery link the routers send its requests and
     * status variables to), connects to its first {@code router}, restores what {@code log} holds
     * from before a restart, and answers requests from then on.
     *
     * @param plan          the server's side of the service ({@link TwoWayPlan#server})
     * @param authorisation who may call what; {@link Authorisation#DENY_ALL} serves nobody
     * @param log           the request log ({@code null}: {@link RequestLog#NONE})
     * @throws IOException if the log cannot be read
     */
    public static RatatoskrServer start(TwoWayPlan plan, InetSocketAddress router, InetSocketAddress listen,
                                        Authorisation authorisation, RequestLog log, ServerSettings settings)
            throws IOException {
        // The conditions' clock for refusing samples from the future: read in the subscriber's thread, so not the agent's cycle time.
        LatestValues status = new LatestValues(MAX_STATUS_VARIABLES, SystemClock.INSTANCE::nanos);
        try {
            return new RatatoskrServer(new RouterAttachment<>("ratatoskr-server", plan, router, listen, c -> {
                RpcServer s = new RpcServer(c.agent(), status, authorisation, log, settings);
                try {
                    s.restore();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                c.endpoint().inbox(s.inboxFor(c.endpoint()));
                return s;
            }), status);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Exports {@code operation} and follows the status variables its conditions read.
     *
     * @throws IllegalArgumentException if its name is exported already or a condition names no status variable
     */
    public void export(Operation operation) {
        feed.follow(operation.precondition());
        feed.follow(operation.postcondition());
        attachment.read(s -> {
            s.export(operation);
            return null;
        });
    }

    /** Reads the server (its counters) in the agent's thread: {@code server.read(s -> s.executions("open"))}. */
    public <R> R read(Function<RpcServer, R> query) {
        return attachment.read(query);
    }

    /** The latest status values the conditions read. */
    public LatestValues status() {
        return status;
    }

    /** The feed of status values, to follow variables beyond those of the conditions. */
    public StatusFeed feed() {
        return feed;
    }

    /** Where the routers deliver requests and status variables. */
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

    /** Events at the delivery link of no variable the server follows. */
    public long unrouted() {
        return attachment.dispatch.unrouted();
    }

    /** Stops answering; requests in flight go unanswered, their callers retry. */
    @Override
    public void close() {
        attachment.close();
    }
}
