/**
 * Cooperative congestion control for status routers, deployed as a bundle of its own: install it
 * beside the status router bundle and set {@code congestion.control} to {@code on} or {@code local}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.congestion;
