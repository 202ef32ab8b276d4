/** Names, identifiers and QoS specifications of status variables and subscriptions. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.model;
