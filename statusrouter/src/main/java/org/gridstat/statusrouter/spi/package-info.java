/**
 * What a status router offers the bundle that brings cooperative congestion control: the router
 * holds its flows, runs a policy per out-link and relays back-pressure on its data path; the
 * bundle brings the policy and the router-to-router notice channels. A router with no
 * {@link org.gridstat.statusrouter.spi.CongestionControl} service forwards under its reservations only.
 * The kernel-shaping bundle brings {@link org.gridstat.statusrouter.spi.KernelShaping}: the
 * router's class tree mirrored onto an HTB qdisc for the links configured so; without it the
 * router shapes every link itself.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.statusrouter.spi;
