package org.gridstat.core.forward;

import java.util.Arrays;

/** The out-links one variable is forwarded over: one copy per link, whatever sits behind it. */
public final class Route {
    private final long variableId;
    private final int[] outLinks;

    Route(long variableId, int[] outLinks) {
        this.variableId = variableId;
        this.outLinks = outLinks;
    }

    public long variableId() {
        return variableId;
    }

    public int outLinkCount() {
        return outLinks.length;
    }

    /** The index, in {@link ForwardingTable#outLinks()}, of this route's {@code i}-th link. */
    public int outLink(int i) {
        return outLinks[i];
    }

    @Override
    public String toString() {
        return "Route[" + Long.toUnsignedString(variableId) + " -> " + Arrays.toString(outLinks) + "]";
    }
}
