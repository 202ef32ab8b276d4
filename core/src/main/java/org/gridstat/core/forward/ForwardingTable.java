package org.gridstat.core.forward;

import java.util.List;
import org.gridstat.core.model.Endpoint;

/**
 * Decides where a status event goes: the out-links its variable is routed over. The data path
 * asks once per event, so {@link #route} must be cheap and allocation-free. Out-links are numbered
 * densely from zero so the data path can keep per-link state in arrays.
 */
public interface ForwardingTable {
    /** The route of a variable, or {@code null} if this node forwards no such variable. */
    Route route(long variableId);

    /** Every out-link, indexed by the numbers routes use. */
    List<Endpoint> outLinks();
}
