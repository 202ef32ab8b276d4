package org.gridstat.gui.action;

/**
 * What became of an operator's action: done, or not, with the broker's status and words
 * ({@code status} 0: no answer came).
 */
public record ActionOutcome(boolean done, int status, String message) {
}
