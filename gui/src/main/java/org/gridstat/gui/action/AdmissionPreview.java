package org.gridstat.gui.action;

/**
 * "What if": runs a subscription request through the simulator against the current topology and
 * reservations before it is admitted, and tells the predicted effect (which links tighten, which
 * flows would become victims under a stated surge). The admit form's "What if…" button calls it;
 * {@link #UNAVAILABLE} keeps the button disabled until a simulator-backed preview is plugged in.
 */
public interface AdmissionPreview {
    /** The prediction: lines of text for the operator. */
    record Result(java.util.List<String> lines) {
        public Result {
            lines = java.util.List.copyOf(lines);
        }
    }

    /** Whether a preview can be asked for at all. */
    boolean available();

    /** Runs the preview; may take a while, so it is called off the UI thread. */
    Result preview(SubscriptionRequest request);

    /** No preview: the button stays disabled, its tooltip says "preview unavailable". */
    AdmissionPreview UNAVAILABLE = new AdmissionPreview() {
        @Override
        public boolean available() {
            return false;
        }

        @Override
        public Result preview(SubscriptionRequest request) {
            return new Result(java.util.List.of("preview unavailable"));
        }
    };
}
