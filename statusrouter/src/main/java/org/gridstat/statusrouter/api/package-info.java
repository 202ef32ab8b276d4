/** The status router as an OSGi service: identity, bound address and live counters. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.statusrouter.api;
