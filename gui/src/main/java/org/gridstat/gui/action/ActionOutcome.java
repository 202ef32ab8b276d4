package org.gridstat.gui.action;

/**
 * What became of an operator's action, with the broker's status and words ({@code status} 0: no
 * answer came).
 */
public record ActionOutcome(Verdict verdict, int status, String message) {
    /**
     * {@code DONE}: the broker answered that it made the change. {@code NOT_DONE}: it answered that
     * it did not (refused, not found, malformed). {@code UNKNOWN}: no answer came in time, or the
     * broker failed after it may have made the change: the operator must look before retrying (a
     * retry of the same action is sent under the same idempotency key, so it is made at most once).
     */
    public enum Verdict { DONE, NOT_DONE, UNKNOWN }

    public boolean done() {
        return verdict == Verdict.DONE;
    }
}
