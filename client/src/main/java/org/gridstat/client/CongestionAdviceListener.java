package org.gridstat.client;

import org.gridstat.core.model.VariableId;

/**
 * Told when the first router holds a publication to fewer samples per second (its congestion
 * control lent the publication's bandwidth to an HRT flow), and when the hold lifts. Called on the
 * publisher's notice thread; keep it short.
 */
@FunctionalInterface
public interface CongestionAdviceListener {
    /**
     * @param rateHz the samples per second the publication now sends at most, on that rate's grid
     *               (the samples it skips are those the routers' holds would drop); 0: no limit
     *               any more. An HRT publication is never held, and is not told.
     */
    void advised(VariableId variable, int rateHz);
}
