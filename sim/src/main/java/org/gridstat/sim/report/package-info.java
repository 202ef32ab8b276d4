/**
 * A run's outputs: CSV (per subscription and report interval, per link, per raw source), a
 * markdown report and PNG plots. The same run gives the same bytes in the CSV and markdown files.
 */
package org.gridstat.sim.report;
