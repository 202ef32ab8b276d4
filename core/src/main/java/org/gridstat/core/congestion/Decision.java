package org.gridstat.core.congestion;

import org.gridstat.core.model.ServiceClass;

/**
 * One change a congestion policy made on a link, or a need it could not meet.
 *
 * @param kind       what happened
 * @param flowId     the flow whose assured rate changed (or whose need is unmet)
 * @param flowClass  that flow's class
 * @param fromRate   its assured rate before, bytes per second
 * @param toRate     its assured rate after; for {@link Kind#UNMET}, the rate it needs
 * @param forFlowId  for {@link Kind#LENT}, the first congested flow that took from it; otherwise -1
 */
public record Decision(Kind kind, long flowId, ServiceClass flowClass, long fromRate, long toRate, long forFlowId) {
    public enum Kind {
        /** A victim's assured rate lowered, toward its minimum, for a congested HRT flow. */
        LENT,
        /** A victim's assured rate raised back toward its reservation: demand fell. */
        RETURNED,
        /** A congested HRT flow's assured rate raised with what victims lent. */
        GRANTED,
        /** A formerly congested HRT flow's assured rate lowered back toward its reservation. */
        RELEASED,
        /** An HRT flow needs more than every victim can lend: an alarm for the broker. */
        UNMET,
        /** A need reported unmet is met again (or gone). */
        MET
    }

    /** The unmet part of an {@link Kind#UNMET} need, bytes per second. */
    public long shortfall() {
        return kind == Kind.UNMET ? toRate - fromRate : 0;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case LENT -> "flow " + flowId + " (" + flowClass + ") lends " + (fromRate - toRate) + " B/s to flow " + forFlowId
                    + ": " + fromRate + " -> " + toRate + " B/s";
            case RETURNED -> "flow " + flowId + " (" + flowClass + ") gets " + (toRate - fromRate) + " B/s back: " + fromRate
                    + " -> " + toRate + " B/s";
            case GRANTED -> "flow " + flowId + " (" + flowClass + ") is granted " + (toRate - fromRate) + " B/s: " + fromRate
                    + " -> " + toRate + " B/s";
            case RELEASED -> "flow " + flowId + " (" + flowClass + ") releases " + (fromRate - toRate) + " B/s: " + fromRate
                    + " -> " + toRate + " B/s";
            case UNMET -> "flow " + flowId + " (" + flowClass + ") needs " + toRate + " B/s, " + shortfall()
                    + " B/s more than the link's victims can lend";
            case MET -> "flow " + flowId + " (" + flowClass + ") is no longer short";
        };
    }
}
