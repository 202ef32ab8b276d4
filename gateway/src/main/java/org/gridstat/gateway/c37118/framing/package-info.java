/**
 * Cutting a TCP byte stream into whole C37.118 frames: frames packed several to a segment or
 * split across many, resynchronisation on the next sync byte after garbage or a damaged frame,
 * bounded memory, every rejection counted by reason.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.c37118.framing;
