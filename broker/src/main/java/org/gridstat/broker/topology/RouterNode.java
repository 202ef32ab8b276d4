package org.gridstat.broker.topology;

import java.util.List;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.model.Endpoint;

/**
 * A status router as the broker sees it: how many events per second it can forward, the queueing
 * budget it is given per hop when an end-to-end bound is split into hop deadlines, and, where the
 * topology gives them, its data address (and priority port), where its neighbours send, and its
 * delivery links to local subscribers. The broker gives a router its out-links from these.
 *
 * @param address  the router's data port, or {@code null}: its neighbours' files name it
 * @param priority the router's priority data port, or {@code null}
 * @param delivery the router's links to subscribers; empty: the topology does not say
 */
public record RouterNode(String id, int index, long forwardingCapacity, long queueingBudgetNanos, String cloud,
                         Endpoint address, Endpoint priority, List<OutLink> delivery) {
    public RouterNode {
        if (forwardingCapacity <= 0) {
            throw new IllegalArgumentException("router " + id + ": forwarding capacity must be positive");
        }
        if (queueingBudgetNanos < 0) {
            throw new IllegalArgumentException("router " + id + ": queueing budget must not be negative");
        }
        if (priority != null && address == null) {
            throw new IllegalArgumentException("router " + id + ": a priority port needs the data address beside it");
        }
        cloud = cloud == null ? "" : cloud; // none, as a topology file without the key says
        delivery = List.copyOf(delivery);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (OutLink l : delivery) {
            if (!names.add(l.name())) {
                throw new IllegalArgumentException("router " + id + ": delivery link '" + l.name() + "' is declared twice");
            }
        }
    }

    /** A router whose addresses and delivery links the topology does not give. */
    public RouterNode(String id, int index, long forwardingCapacity, long queueingBudgetNanos, String cloud) {
        this(id, index, forwardingCapacity, queueingBudgetNanos, cloud, null, null, List.of());
    }

    /** The delivery link of this name, or {@code null}. */
    public OutLink deliveryLink(String name) {
        for (OutLink l : delivery) {
            if (l.name().equals(name)) {
                return l;
            }
        }
        return null;
    }
}
