/** The broker's state in ZooKeeper: layout, transactions, the embedded server. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.store;
