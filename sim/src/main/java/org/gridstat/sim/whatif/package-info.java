/**
 * "What if": the effect of admitting a subscription, predicted before it is made. The operator
 * console hands {@link org.gridstat.sim.whatif.AdmissionPreview} the broker's state as its
 * management API returns it, a {@link org.gridstat.sim.whatif.Candidate} and optionally a
 * {@link org.gridstat.sim.whatif.Surge}; the broker's own admission, run in process, says whether
 * the candidate is admitted and how each link's class reservations change, and the simulator, run
 * on the resulting network with congestion control on, says which flows would miss deadlines,
 * overflow or lend bandwidth to congested HRT flows ({@link org.gridstat.sim.whatif.Preview}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.sim.whatif;
