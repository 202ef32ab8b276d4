/** The broker hierarchy: a parent broker routing subscriptions between clouds governed by leaf brokers. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.hierarchy;
