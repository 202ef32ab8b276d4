package org.gridstat.rpc.pubsub;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.Publication;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.wire.WireFormat;
import org.gridstat.rpc.transport.Outlet;
import org.gridstat.rpc.transport.TwoWayEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One side of a 2WoPS connection over status routers: a {@link TwoWayEndpoint} run by an
 * {@link RpcAgent}, publishing its frames as status events of its own variable and handed the
 * events of the peer's.
 *
 * <p>The connection offers spatial levels: for each number of disjoint paths {@code k}, a
 * variable of its own whose subscription the broker admitted with {@code k} paths (its
 * {@link Publication}), and the peer's variable of that level. A send over {@code paths} paths
 * goes out on the publication of exactly that level, else of the largest level below it (fewer
 * paths than asked: the redundancy the network has), else of the smallest level offered (more
 * paths than asked, never none). Each frame is one event, stamped with the agent's epoch time, so
 * the publication's latency bound makes its deadline; temporal copies are events of their own.
 *
 * <p>Receiving: the events of the peer's variables of every level arrive at a subscriber (through a
 * {@link VariableDispatch}), whose sequence window has already dropped the copies of one event
 * that came over several paths. Each is copied out of the subscriber's buffer and offered to the
 * agent, which hands it to {@link TwoWayEndpoint#receive}; a full agent queue drops it (counted
 * by the agent), as a lost packet.
 */
public final class PubSubConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PubSubConnection.class);

    private final RpcAgent agent;
    private final NavigableMap<Integer, Publication> sends;
    private final List<VariableId> receives;
    private final VariableDispatch dispatch;
    private final TwoWayEndpoint endpoint;
    private final AtomicLong framesReceived = new AtomicLong();
    private final AtomicLong framesLost = new AtomicLong();
    // Written in the agent's thread only; read anywhere as a figure.
    private volatile long framesPublished;
    private volatile long publishFailures;
    private volatile long oversize;
    private volatile long substituted;

    /**
     * Builds the endpoint and routes the peer's variables to it.
     *
     * @param connectionId      this side's id on the wire: nonzero, new for each session
     * @param latencyBoundNanos the latency bound the subscriptions of this side's variables were admitted with
     * @param sends             this side's publication per spatial level (paths)
     * @param receives          the peer's variable per spatial level
     * @throws IllegalArgumentException if no level is offered, a level is not 1..8, or a peer's variable is routed already
     */
    public PubSubConnection(RpcAgent agent, long connectionId, long latencyBoundNanos, Map<Integer, Publication> sends,
                            Map<Integer, VariableId> receives, VariableDispatch dispatch) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
        if (sends.isEmpty() || receives.isEmpty()) {
            throw new IllegalArgumentException("a 2WoPS connection sends and receives on at least one spatial level");
        }
        for (int k : sends.keySet()) {
            TwoWayPlan.checkLevel(k);
        }
        for (int k : receives.keySet()) {
            TwoWayPlan.checkLevel(k);
        }
        this.sends = new TreeMap<>(sends);
        this.receives = List.copyOf(receives.values());
        this.endpoint = new TwoWayEndpoint(connectionId, latencyBoundNanos, outlet(), agent, null);
        int routed = 0;
        try {
            for (VariableId v : this.receives) {
                dispatch.route(v, this::received);
                routed++;
            }
        } catch (RuntimeException e) {
            for (int i = 0; i < routed; i++) {
                dispatch.remove(this.receives.get(i));
            }
            throw e;
        }
    }

    /** The endpoint: for the agent's thread only (the client or server built on it lives there too). */
    public TwoWayEndpoint endpoint() {
        return endpoint;
    }

    public RpcAgent agent() {
        return agent;
    }

    /** The level a send over {@code paths} paths goes out on, as the class comment says. */
    public int levelFor(int paths) {
        Integer k = sends.floorKey(paths);
        return k != null ? k : sends.firstKey();
    }

    private Outlet outlet() {
        return (paths, frame, length) -> {
            int level = levelFor(paths);
            if (level != paths) {
                substituted++;
            }
            if (length > WireFormat.MAX_PAYLOAD_LENGTH) {
                if (oversize++ == 0) {
                    LOG.error("a 2WoPS frame of {} bytes does not fit a status event (at most {}); counting further ones",
                            length, WireFormat.MAX_PAYLOAD_LENGTH);
                }
                return;
            }
            if (sends.get(level).publish(frame, 0, length, agent.epochNanos())) {
                framesPublished++;
            } else {
                publishFailures++;
            }
        };
    }

    /** In the subscriber's thread: the event is valid during this call only, so its payload is copied. */
    private void received(ReceivedEvent event) {
        framesReceived.incrementAndGet();
        int n = event.payloadLength();
        byte[] copy = new byte[n];
        event.copyPayload(copy, 0);
        if (!agent.offer(() -> endpoint.receive(copy, 0, n))) {
            framesLost.incrementAndGet();
        }
    }

    /** Events of the peer's variables received (spatial copies already dropped by the subscriber). */
    public long framesReceived() {
        return framesReceived.get();
    }

    /** Received frames dropped because the agent's queue was full. */
    public long framesLost() {
        return framesLost.get();
    }

    /** Frames handed to the publisher. */
    public long framesPublished() {
        return framesPublished;
    }

    /** Frames the publisher could not send (counted by it too). */
    public long publishFailures() {
        return publishFailures;
    }

    /** Frames too large for one status event, never sent. */
    public long oversize() {
        return oversize;
    }

    /** Sends that went out on another level than the paths they asked for. */
    public long substituted() {
        return substituted;
    }

    /** Stops routing the peer's variables here; the publications stay their publisher's. */
    @Override
    public void close() {
        receives.forEach(dispatch::remove);
    }
}
