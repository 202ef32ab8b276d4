/**
 * Names, identifiers and QoS specifications of status variables and subscriptions, and the text
 * forms configuration writes them in (durations, endpoints, key=value lines).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.core.model;
