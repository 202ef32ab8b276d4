/**
 * Data frames, the hot path: a layout computed once from the configuration in force, a flyweight
 * reader over a buffer that allocates nothing per frame, and a writer that fills a frame in place.
 * Values are given raw (the bits as sent, for bit-exact forwarding) and in engineering units.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.c37118.data;
