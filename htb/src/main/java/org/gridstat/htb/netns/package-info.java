/**
 * Network namespaces for testbeds and tests: {@link org.gridstat.htb.netns.VethLink} wires a private
 * namespace to the root one with a veth pair, and {@link org.gridstat.htb.netns.NetworkNamespace}
 * runs code (typically the opening of a socket) inside a named namespace.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.htb.netns;
