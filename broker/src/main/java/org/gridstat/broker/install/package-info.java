/** From admitted subscriptions to the flows each router must hold. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.broker.install;
