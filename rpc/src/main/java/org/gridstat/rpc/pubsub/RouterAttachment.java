package org.gridstat.rpc.pubsub;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.gridstat.client.Publication;
import org.gridstat.client.Publisher;
import org.gridstat.client.Subscriber;
import org.gridstat.core.model.VariableId;

/**
 * What one side of a Ratatoskr service attaches to the status routers: its own agent thread, a
 * subscriber at its delivery link (with a {@link VariableDispatch}, so status variables can share
 * the socket), a publisher at its first router with a publication per spatial level, and the 2WoPS
 * connection between them, built in the agent's thread together with the client or server on it,
 * so that no frame reaches the endpoint before its inbox is set.
 */
final class RouterAttachment<T> implements AutoCloseable {
    /** How long the application waits for the agent to carry out a setup or a query. */
    static final long AGENT_WAIT_SECONDS = 10;
    private static final SecureRandom IDS = new SecureRandom();

    final RpcAgent agent;
    final VariableDispatch dispatch = new VariableDispatch();
    final Subscriber subscriber;
    final Publisher publisher;
    final PubSubConnection connection;
    /** The client or server on the connection: touched in the agent's thread only. */
    final T protocol;

    /**
     * @param build makes the client or server on the connection, in the agent's thread
     */
    RouterAttachment(String name, TwoWayPlan plan, InetSocketAddress router, InetSocketAddress listen,
                     Function<PubSubConnection, T> build) {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            agent = RpcAgent.start(name);
            opened.add(agent);
            subscriber = Subscriber.open(listen, dispatch);
            opened.add(subscriber);
            publisher = Publisher.connect(router);
            opened.add(publisher);
            Map<Integer, Publication> sends = new LinkedHashMap<>();
            plan.sends().forEach((k, id) -> sends.put(k, publisher.publication(id, plan.serviceClass(),
                    plan.latencyBound(), plan.interval())));
            long bound = plan.latencyBound().toNanos();
            Map<Integer, VariableId> receives = plan.receives();
            Built<T> built = await(agent.submit(() -> {
                PubSubConnection c = new PubSubConnection(agent, newId(), bound, sends, receives, dispatch);
                try {
                    return new Built<>(c, build.apply(c));
                } catch (RuntimeException e) {
                    c.close();
                    throw e;
                }
            }));
            connection = built.connection();
            protocol = built.protocol();
        } catch (RuntimeException | Error e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private record Built<T>(PubSubConnection connection, T protocol) {
    }

    /** A nonzero id no other session is likely to have had: a restart must not look like its predecessor. */
    static long newId() {
        long id;
        do {
            id = IDS.nextLong();
        } while (id == 0);
        return id;
    }

    /** Runs {@code query} on the protocol object in the agent's thread and waits for its answer. */
    <R> R read(Function<T, R> query) {
        return await(agent.submit(() -> query.apply(protocol)));
    }

    /** Waits for the agent; its failure is rethrown as it was, an unchecked one as it is. */
    static <R> R await(CompletableFuture<R> f) {
        try {
            return f.get(AGENT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the RPC agent did not answer within " + AGENT_WAIT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the RPC agent", e);
        }
    }

    /** The agent first, so nothing publishes on a closed publisher; then the sockets. */
    @Override
    public void close() {
        agent.close();
        connection.close();
        subscriber.close();
        publisher.close();
    }
}
