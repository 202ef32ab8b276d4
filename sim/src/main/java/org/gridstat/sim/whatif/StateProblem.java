package org.gridstat.sim.whatif;

/**
 * Part of the current state a fresh broker, fed it in order, does not take as it is: a variable it
 * cannot declare or an existing subscription it refuses (the network changed since, or the state
 * was admitted in another order). The preview goes on without it.
 *
 * @param what   {@code variable NAME} or {@code subscription LABEL}
 * @param reason the broker's reason
 */
public record StateProblem(String what, String reason) {
}
