/**
 * The status event wire format: a flyweight decoder and encoder that read and write frames in place.
 * The byte layout is documented in {@code docs/wire-format.md}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.core.wire;
