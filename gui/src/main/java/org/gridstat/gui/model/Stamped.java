package org.gridstat.gui.model;

/**
 * A value and when it was so, on the console's clock (ms since 1970): when the console received
 * it, or, for a flow its router has reported, when the router reported it (no later than its
 * receipt). How old what is shown is.
 */
public record Stamped<T>(T value, long atMillis) {
}
