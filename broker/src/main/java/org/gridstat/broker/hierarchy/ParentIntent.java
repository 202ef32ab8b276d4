package org.gridstat.broker.hierarchy;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.management.QosDocument;

/**
 * An operation of the parent broker recorded before it calls any leaf, and updated as it goes,
 * so that a parent stopped half way (a crash, a lost ZooKeeper session) knows on restart what
 * the leaves may hold: {@code SUBSCRIBE}, with each leg's state (planned, being called, made with
 * the leaf's subscription id), is undone; {@code UNSUBSCRIBE} is finished.
 */
record ParentIntent(int schema, long id, Action action, String variable, String subscriberRouter,
                    String subscriberLink, QosDocument qos, List<Leg> legs) {
    static final int SCHEMA = 1;

    enum Action {
        SUBSCRIBE, UNSUBSCRIBE
    }

    enum LegState {
        /** Not asked yet: the leaf holds nothing of it. */
        PLANNED,
        /** Asked, answer not recorded: the leaf may hold it, under an id the parent never learned. */
        CALLING,
        /** Made: the leaf holds {@code leafSubscriptionId}. */
        MADE
    }

    /**
     * One cloud's segment: the leaf's subscription delivered at {@code router} over {@code link},
     * with the bound {@code boundNanos} (what tells it apart from the leaf's other subscriptions
     * when its id was never learned).
     */
    record Leg(String cloud, String router, String link, long boundNanos, LegState state, Long leafSubscriptionId) {
        Leg with(LegState s, Long leafId) {
            return new Leg(cloud, router, link, boundNanos, s, leafId);
        }
    }

    ParentIntent {
        legs = List.copyOf(legs);
    }

    ParentIntent withLeg(int i, LegState state, Long leafId) {
        List<Leg> l = new ArrayList<>(legs);
        l.set(i, l.get(i).with(state, leafId));
        return new ParentIntent(schema, id, action, variable, subscriberRouter, subscriberLink, qos, l);
    }

    /** The teardown of a subscription made: every leg made. */
    static ParentIntent teardown(CrossCloudSubscription s) {
        return new ParentIntent(SCHEMA, s.id(), Action.UNSUBSCRIBE, s.variable(), s.subscriberRouter(), s.subscriberLink(),
                QosDocument.of(s.qos()), s.segments().stream().map(g -> new Leg(g.cloud(), g.hops().get(g.hops().size() - 1)
                .router(), g.exitLink(), g.boundNanos(), LegState.MADE, g.leafSubscriptionId())).toList());
    }
}
