package org.gridstat.broker.admission;

import java.util.TreeMap;
import org.gridstat.core.control.ControlCodec;
import org.gridstat.core.model.ServiceClass;

/**
 * The one flow a router holds for a variable on an out-link, whatever the number of subscriptions
 * behind it: installed in the most urgent class among theirs, with the highest of their rates as
 * its assured rate (multicast: one copy crosses the link), filtering by the union of their
 * intervals. The flow planner installs it so and admission counts it so: both follow this rule.
 *
 * <p>A teardown can move the flow to a less urgent class (its most urgent subscribers leave) with
 * a rate that class's share was never asked for. So the flow also holds, in each class it has
 * subscribers in, the highest rate among them and the less urgent ones ({@link #held}): what it
 * would need there once the more urgent subscribers left. In its own class that is its assured
 * rate; in the others it stands by. Held amounts only fall when a subscription leaves, so a
 * teardown never pushes a class over its share. Mutable multisets, so that removing a subscription
 * undoes exactly what adding it did.
 */
public final class SharedFlow {
    /** The most intervals one flow's rate filter can carry: what the control channel can encode. */
    public static final int MAX_INTERVALS = ControlCodec.MAX_INTERVALS;

    private static final ServiceClass[] CLASSES = ServiceClass.values(); // in order of urgency

    /** Per class (ordinal): the rates of its subscriptions, bytes per second, a multiset. */
    @SuppressWarnings("unchecked")
    private final TreeMap<Long, Integer>[] ratesByClass = new TreeMap[CLASSES.length];
    private final TreeMap<Long, Integer> intervals = new TreeMap<>();
    private int subscriptions;

    public SharedFlow() {
        for (int i = 0; i < CLASSES.length; i++) {
            ratesByClass[i] = new TreeMap<>();
        }
    }

    public void add(SubscriptionRequest r) {
        count(ratesByClass[r.qos().serviceClass().ordinal()], r.bytesPerSecond(), +1);
        count(intervals, r.qos().intervalNanos(), +1);
        subscriptions++;
    }

    /** Takes back one {@link #add} of the same request. */
    public void remove(SubscriptionRequest r) {
        TreeMap<Long, Integer> rates = ratesByClass[r.qos().serviceClass().ordinal()];
        if (!rates.containsKey(r.bytesPerSecond()) || !intervals.containsKey(r.qos().intervalNanos())) {
            throw new IllegalStateException("subscription " + r.subscriptionId() + " is not in this flow");
        }
        count(rates, r.bytesPerSecond(), -1);
        count(intervals, r.qos().intervalNanos(), -1);
        subscriptions--;
    }

    public boolean isEmpty() {
        return subscriptions == 0;
    }

    /** The class the flow is installed in: the most urgent of its subscriptions' (BE if none). */
    public ServiceClass serviceClass() {
        for (ServiceClass c : CLASSES) {
            if (!ratesByClass[c.ordinal()].isEmpty()) {
                return c;
            }
        }
        return ServiceClass.BE;
    }

    /** The flow's assured rate, bytes per second: the highest of its subscriptions' (0 if none). */
    public long assuredRate() {
        return held(CLASSES[0], null);
    }

    /**
     * What the flow holds of class {@code c}'s share, bytes per second: if it has subscribers in
     * {@code c}, the highest rate among them and the less urgent ones, else nothing.
     */
    public long held(ServiceClass c) {
        return ratesByClass[c.ordinal()].isEmpty() ? 0 : held(c, null);
    }

    /** What the flow would hold of class {@code c}'s share with {@code r} added. */
    public long heldWith(SubscriptionRequest r, ServiceClass c) {
        boolean present = !ratesByClass[c.ordinal()].isEmpty() || r.qos().serviceClass() == c;
        return present ? held(c, r) : 0;
    }

    /** The highest rate of the subscriptions in {@code c} or less urgent classes, {@code extra} among them. */
    private long held(ServiceClass c, SubscriptionRequest extra) {
        long max = extra != null && extra.qos().serviceClass().ordinal() >= c.ordinal() ? extra.bytesPerSecond() : 0;
        for (int i = c.ordinal(); i < CLASSES.length; i++) {
            if (!ratesByClass[i].isEmpty()) {
                max = Math.max(max, ratesByClass[i].lastKey());
            }
        }
        return max;
    }

    /** The distinct intervals the flow would filter by with {@code r} added. */
    public int distinctIntervalsWith(SubscriptionRequest r) {
        return intervals.size() + (intervals.containsKey(r.qos().intervalNanos()) ? 0 : 1);
    }

    /** The distinct intervals of its subscriptions, shortest first. */
    public long[] intervals() {
        return intervals.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    private static void count(TreeMap<Long, Integer> multiset, long value, int sign) {
        int n = multiset.getOrDefault(value, 0) + sign;
        if (n <= 0) {
            multiset.remove(value);
        } else {
            multiset.put(value, n);
        }
    }
}
