package org.gridstat.sim.whatif;

/**
 * An HRT flow whose need congestion control on {@code link} could not cover from its victims:
 * the alarm a router raises to its broker.
 *
 * @param neededBytes   the most it needed, bytes per second
 * @param shortBytes    the most it lacked, bytes per second
 * @param firstAtNanos  when it first lacked, simulated time
 */
public record Shortfall(String link, String variable, long neededBytes, long shortBytes, long firstAtNanos) {
}
