/** Admission control: k disjoint paths with the bandwidth and latency a subscription asks for. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.admission;
