/**
 * Command frames, from a PDC to a PMU: data off and on, send the header or a configuration, an
 * extended frame with user data, and codes the standard leaves to users.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.c37118.command;
