/** The broker's HTTP/JSON management API, version 1. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.api;
