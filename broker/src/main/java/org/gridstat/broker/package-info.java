/** The QoS broker: admission, planning and installation of subscriptions in its routers. */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.broker;
