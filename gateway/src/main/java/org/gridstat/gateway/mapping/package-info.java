/**
 * C37.118 data as status variables: the payload of a PMU's data variable ({@link
 * org.gridstat.gateway.mapping.PmuSample}, one sample, self-describing and bit-exact) and of its
 * companion description variable ({@link org.gridstat.gateway.mapping.PmuDescription}, a one-PMU
 * CFG-2 cut into payload-sized parts and joined again by a
 * {@link org.gridstat.gateway.mapping.DescriptionAssembler}). Pure: no I/O. The byte layouts are
 * documented in {@code docs/c37118.md}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.mapping;
