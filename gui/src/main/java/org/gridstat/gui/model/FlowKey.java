package org.gridstat.gui.model;

/** A flow as its router names it: the router and the flow id it installed it under. */
public record FlowKey(String router, long flowId) implements Comparable<FlowKey> {
    @Override
    public int compareTo(FlowKey o) {
        int c = router.compareTo(o.router);
        return c != 0 ? c : Long.compare(flowId, o.flowId);
    }

    @Override
    public String toString() {
        return router + "#" + flowId;
    }
}
