package org.gridstat.gui.model;

import java.time.Instant;

/**
 * An alarm as the broker folds it ({@code GET /alarms}): one per source, kind and subject (what it
 * is about: a flow, or the message itself), with the latest message, how often it was raised and
 * when first and last. {@code decision} tells the control plane's decisions from network noise.
 */
public record Alarm(String source, String kind, String severity, String subject, String message, long count,
                    Instant firstSeen, Instant lastSeen, boolean decision) {
    /**
     * What identifies an alarm across answers: the broker folds repeats of it into one, so a
     * condition whose message carries changing figures latches once.
     */
    public String identity() {
        return source + "\n" + kind + "\n" + subject;
    }
}
