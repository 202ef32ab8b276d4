package org.gridstat.sim.whatif;

/** A state too large to preview within {@link PreviewLimits}; the message says which limit and by how much. */
public final class PreviewTooLargeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public PreviewTooLargeException(String message) {
        super(message);
    }
}
