/** The Ratatoskr client: calls with a redundancy policy and a deadline, their outcomes and their post-condition reports. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.client;
