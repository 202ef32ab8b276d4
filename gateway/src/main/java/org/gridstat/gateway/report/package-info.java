/**
 * What a phasor gateway tells the broker of its devices, so that operators see them in the
 * broker's API and {@code gridstat admin show devices}: {@link org.gridstat.gateway.report.DeviceReport}
 * turns device snapshots into the report document, {@link org.gridstat.gateway.report.DeviceReporter}
 * sends it every period on a thread of its own. The document is described in
 * {@code docs/management-api.md}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.gateway.report;
