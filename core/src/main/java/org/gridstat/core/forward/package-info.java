/** The forwarding decision: which out-links a status event goes to. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.forward;
