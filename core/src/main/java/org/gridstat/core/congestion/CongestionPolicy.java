package org.gridstat.core.congestion;

import java.util.function.Consumer;
import org.gridstat.core.sched.LinkFlows;

/**
 * Decides the assured rate of each flow on one out-link. Called on the data-path thread after
 * each estimator period of the link and after its flows changed; one instance per link, which may
 * keep state between calls. Must not block or allocate per call unless it reports a decision.
 */
@FunctionalInterface
public interface CongestionPolicy {
    /**
     * Sets the flows' assured rates through {@link LinkFlows#assure} and reports every change, and
     * every need it could not meet, to {@code decisions}.
     */
    void reassign(LinkFlows flows, long now, Consumer<Decision> decisions);
}
