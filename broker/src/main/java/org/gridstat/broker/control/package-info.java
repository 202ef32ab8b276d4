/** The broker's end of the control channel to its routers. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.broker.control;
