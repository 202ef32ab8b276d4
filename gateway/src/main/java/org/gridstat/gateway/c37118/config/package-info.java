/**
 * What describes a stream: configuration frames 1 and 2 (fixed 16-byte names, PHUNIT/ANUNIT
 * integer factors), configuration frame 3 (length-prefixed names, PHSCALE/ANSCALE floats, PMU
 * location, service class, filter window and group delay, continuation across frames) and the
 * header frame's free text. Immutable records, decoded and encoded whole: they are rare.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.c37118.config;
