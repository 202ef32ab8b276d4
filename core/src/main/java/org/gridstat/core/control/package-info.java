/**
 * The control channel between a broker and its routers: messages and their length-prefixed,
 * versioned binary encoding. Every malformed input decodes to a typed rejection, never an exception.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("2.2.0")
package org.gridstat.core.control;
