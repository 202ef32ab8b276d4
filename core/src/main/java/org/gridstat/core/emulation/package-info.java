/**
 * Emulation of wide-area links in user space: serialization at the link's capacity behind a
 * bounded queue, propagation delay, omission loss, outages.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.emulation;
