/** The forwarding decision: the flows of each variable, their filters and out-link schedulers, changed by versioned commands. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.3.0")
package org.gridstat.core.forward;
