/** Counters written by one data-path thread and read by any other. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.stats;
