package org.gridstat.client;

/**
 * A subscriber's counts at one instant: events delivered once each, copies discarded because an
 * earlier copy (another path) was delivered, sequence numbers never received, copies too late to
 * tell, and the delivery latency (receive time less source time) of the delivered events.
 */
public record SubscriberStatistics(long delivered, long duplicatesDiscarded, long gaps, long tooLate,
                                   long latencyMinNanos, long latencyMeanNanos, long latencyMaxNanos) {
}
