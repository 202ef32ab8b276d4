/** Declared status variables: who publishes what, where, how often. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.catalog;
