package org.gridstat.broker.hierarchy;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.management.QosDocument;

/**
 * An operation of the parent broker recorded before it calls any leaf, and updated as it goes,
 * so that a parent stopped half way (a crash, a lost ZooKeeper session) knows on restart what
 * the leaves may hold and which border links it had reserved: {@code SUBSCRIBE}, with each leg's
 * state (planned, being called, made with the leaf's subscription id), is undone; {@code
 * UNSUBSCRIBE} is finished. Each leg carries the idempotency keys of its calls, recorded before
 * the call, so that a call whose answer never came can be repeated and answered as the first was.
 */
record ParentIntent(int schema, long id, Action action, String variable, long variableId, int frameBytes,
                    String subscriberRouter, String subscriberLink, QosDocument qos, List<String> borderLinks,
                    List<Leg> legs) {
    static final int SCHEMA = 2;

    enum Action {
        SUBSCRIBE, UNSUBSCRIBE
    }

    enum LegState {
        /** Not asked yet: the leaf holds nothing of it. */
        PLANNED,
        /** Asked, answer not recorded: the leaf may hold it, and answers a repeat under {@code key} with its id. */
        CALLING,
        /** Made: the leaf holds {@code leafSubscriptionId}. */
        MADE
    }

    /**
     * One cloud's segment: the leaf's subscription delivered at {@code router} over {@code link}
     * with {@code qos} (rate as an interval), {@code downstreamNanos} and {@code restNanos} (the
     * request exactly as sent, so a repeat is the same request); asked for under {@code key} and
     * torn down under {@code undoKey}. A teardown's legs carry no request ({@code qos} null).
     */
    record Leg(String cloud, String router, String link, QosDocument qos, long downstreamNanos, long restNanos,
               String key, String undoKey, LegState state, Long leafSubscriptionId) {
        Leg with(LegState s, Long leafId) {
            return new Leg(cloud, router, link, qos, downstreamNanos, restNanos, key, undoKey, s, leafId);
        }
    }

    ParentIntent {
        borderLinks = List.copyOf(borderLinks);
        legs = List.copyOf(legs);
    }

    ParentIntent withLeg(int i, LegState state, Long leafId) {
        List<Leg> l = new ArrayList<>(legs);
        l.set(i, l.get(i).with(state, leafId));
        return new ParentIntent(schema, id, action, variable, variableId, frameBytes, subscriberRouter, subscriberLink, qos,
                borderLinks, l);
    }

    /** The idempotency key of leg {@code leg}'s subscription at its leaf, for intent {@code id} of parent {@code parent}. */
    static String legKey(String parent, long id, int leg) {
        return "parent-" + parent + "-" + id + "-leg-" + leg;
    }

    /** The idempotency key of leg {@code leg}'s teardown. */
    static String undoKey(String parent, long id, int leg) {
        return "parent-" + parent + "-" + id + "-undo-" + leg;
    }

    /** The teardown of a subscription made: every leg made. */
    static ParentIntent teardown(CrossCloudSubscription s, String parent) {
        List<Leg> legs = new ArrayList<>();
        for (int i = 0; i < s.segments().size(); i++) {
            CrossCloudSubscription.Segment g = s.segments().get(i);
            legs.add(new Leg(g.cloud(), g.hops().get(g.hops().size() - 1).router(), g.exitLink(), null, 0, 0,
                    legKey(parent, s.id(), i), undoKey(parent, s.id(), i), LegState.MADE, g.leafSubscriptionId()));
        }
        return new ParentIntent(SCHEMA, s.id(), Action.UNSUBSCRIBE, s.variable(), s.variableId().value(), s.frameBytes(),
                s.subscriberRouter(), s.subscriberLink(), QosDocument.of(s.qos()), s.borderLinks(), legs);
    }
}
