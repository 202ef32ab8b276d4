/** The Ratatoskr server: exported operations, authorisation, at-most-once execution through the table of recent requests and its log, pre- and post-conditions. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.server;
