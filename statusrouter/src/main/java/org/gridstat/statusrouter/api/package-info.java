/** The status router as an OSGi service: identity, bound address and live counters; a check of its configuration. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.statusrouter.api;
