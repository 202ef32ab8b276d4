/**
 * The documents of the broker's management API, version 1 ({@code docs/management-api.md}):
 * plain records that a JSON library maps one to one, shared by the broker and its clients.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.core.management;
