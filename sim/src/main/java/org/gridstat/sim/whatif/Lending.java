package org.gridstat.sim.whatif;

/**
 * A victim of bandwidth reassignment: congestion control on {@code link} lowered the assured rate
 * of the flow a subscription rides, to lend it to a congested HRT flow of {@code toVariable}.
 *
 * @param link          the out-link, {@code a->b} or {@code router/name} for a delivery link
 * @param toVariable    the variable of the congested flow it first lent to
 * @param assuredBytes  its assured rate before it first lent, bytes per second
 * @param lowestBytes   the lowest assured rate it was held to
 * @param firstAtNanos  when it first lent, simulated time
 * @param times         how many times it lent
 */
public record Lending(String link, String toVariable, long assuredBytes, long lowestBytes, long firstAtNanos, int times) {
    /** The most it lent at once, bytes per second. */
    public long lentBytes() {
        return assuredBytes - lowestBytes;
    }
}
