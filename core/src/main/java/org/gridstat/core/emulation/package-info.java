/** Emulation of wide-area links in user space: propagation delay, omission loss, outages. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.emulation;
