/** Rate filtering: which samples of a variable travel a link, aligned to absolute time. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.core.filter;
