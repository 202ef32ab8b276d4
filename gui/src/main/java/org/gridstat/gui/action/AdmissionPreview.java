package org.gridstat.gui.action;

/**
 * "What if": runs a subscription request through the simulator against the current topology and
 * reservations before it is admitted, and tells the predicted effect (which links tighten, which
 * flows would become victims under a stated surge). The admit form's "What if…" button calls it
 * (org.gridstat.gui.whatif.SimulatedPreview in the console); {@link #UNAVAILABLE} keeps the button
 * disabled.
 */
public interface AdmissionPreview {
    /** The prediction: lines of text for the operator, the verdict first. */
    record Result(java.util.List<String> lines) {
        public Result {
            lines = java.util.List.copyOf(lines);
        }
    }

    /** Whether a preview can be asked for at all. */
    boolean available();

    /**
     * Runs the preview; takes seconds, so it is called off the UI thread. Whatever goes wrong (the
     * broker unreachable, a state too large to simulate) is told in the result's lines, not thrown.
     *
     * @param surge the stated surge, or {@code null}: every publisher at its declared rate
     */
    Result preview(SubscriptionRequest request, StatedSurge surge);

    /**
     * The same, given up as soon as it can be once {@code cancelled} turns true (the operator
     * cancelled it, changed the form or closed it); its result is then not shown. By default it
     * runs to its end.
     */
    default Result preview(SubscriptionRequest request, StatedSurge surge, java.util.function.BooleanSupplier cancelled) {
        return preview(request, surge);
    }

    /** No preview: the button stays disabled, its tooltip says "preview unavailable". */
    AdmissionPreview UNAVAILABLE = new AdmissionPreview() {
        @Override
        public boolean available() {
            return false;
        }

        @Override
        public Result preview(SubscriptionRequest request, StatedSurge surge) {
            return new Result(java.util.List.of("preview unavailable"));
        }
    };
}
