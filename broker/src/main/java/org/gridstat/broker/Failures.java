package org.gridstat.broker;

import java.util.concurrent.CompletionException;

/** What a failed asynchronous step reports. */
public final class Failures {
    private Failures() {
    }

    /** The failure a {@link CompletionException} carries, or {@code t} itself if it is none (or carries none). */
    public static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
