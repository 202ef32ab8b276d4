/**
 * The status router as an OSGi service: identity, bound address and live counters (with congestion
 * control's recent decisions); a check of its configuration.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.gridstat.statusrouter.api;
