/** k node-disjoint paths of least total cost (Suurballe/Bhandari, as min-cost flow). */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker.paths;
