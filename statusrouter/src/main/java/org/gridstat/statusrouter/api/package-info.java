/**
 * The status router as an OSGi service: identity, bound address and live counters (with congestion
 * control's recent decisions); a check of its configuration; a router run in process without a
 * framework ({@link org.gridstat.statusrouter.api.EmbeddedRouter}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.4.0")
package org.gridstat.statusrouter.api;
