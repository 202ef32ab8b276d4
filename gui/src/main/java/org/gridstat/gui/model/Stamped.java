package org.gridstat.gui.model;

/** A value and when the console received it (ms since 1970, the feed's clock): how old what is shown is. */
public record Stamped<T>(T value, long receivedAtMillis) {
}
