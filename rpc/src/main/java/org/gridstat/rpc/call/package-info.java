/** The Ratatoskr messages (request, reply, post-condition report) and their bytes. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.call;
