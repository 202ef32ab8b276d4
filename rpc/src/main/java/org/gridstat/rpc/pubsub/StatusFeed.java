package org.gridstat.rpc.pubsub;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.gridstat.client.ReceivedEvent;
import org.gridstat.client.StatusEventListener;
import org.gridstat.core.model.VariableId;
import org.gridstat.core.model.VariableName;
import org.gridstat.core.wire.PayloadType;
import org.gridstat.rpc.condition.Condition;
import org.gridstat.rpc.condition.LatestValues;

/**
 * Keeps the latest sample of the status variables a server's conditions read, as they arrive at
 * its subscriber: each followed variable's events (a double each) go into a {@link LatestValues},
 * the server's {@link org.gridstat.rpc.condition.StatusView}. Runs in the subscriber's thread;
 * {@link LatestValues} is safe to read from the agent's meanwhile. Followed variables are bounded
 * by the table's size; an event that is not a double is counted and ignored. The variables must be
 * subscribed at the server's delivery link, through the broker, as any subscription.
 */
public final class StatusFeed implements StatusEventListener {
    private final LatestValues values;
    private final VariableDispatch dispatch;
    private final ConcurrentHashMap<Long, String> names = new ConcurrentHashMap<>();
    private final AtomicLong notDouble = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();

    public StatusFeed(LatestValues values, VariableDispatch dispatch) {
        this.values = Objects.requireNonNull(values, "values");
        this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
    }

    /**
     * Feeds the samples of {@code variable} (its id derived from its name, as the broker derives
     * it) into the table; following it again does nothing.
     *
     * @throws IllegalArgumentException if the name is not a status variable's
     * @throws IllegalStateException    when the table's variables are all followed already
     */
    public synchronized void follow(String variable) {
        VariableId id = VariableId.ofName(VariableName.of(variable));
        if (variable.equals(names.get(id.value()))) {
            return;
        }
        if (names.size() >= values.maxVariables()) {
            throw new IllegalStateException("status feed: " + values.maxVariables() + " variables followed already, "
                    + variable + " cannot be added");
        }
        dispatch.route(id, this);
        names.put(id.value(), variable);
    }

    /** Follows every variable {@code condition} reads. */
    public void follow(Condition condition) {
        condition.variables().forEach(this::follow);
    }

    @Override
    public void onEvent(ReceivedEvent event) {
        String name = names.get(event.variableId());
        if (name == null) {
            return; // routed here by a dispatch it no longer follows on
        }
        if (event.payloadType() != PayloadType.DOUBLE) {
            notDouble.incrementAndGet();
            return;
        }
        samples.incrementAndGet();
        values.update(name, event.doubleValue(), event.sourceTimeNanos());
    }

    public LatestValues values() {
        return values;
    }

    /** Samples offered to the table. */
    public long samples() {
        return samples.get();
    }

    /** Events of followed variables that did not carry a double, ignored. */
    public long notDouble() {
        return notDouble.get();
    }
}
