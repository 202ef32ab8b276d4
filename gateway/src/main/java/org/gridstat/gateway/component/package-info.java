/** The phasor gateway's OSGi component: a gateway per Config Admin configuration. */
package org.gridstat.gateway.component;
