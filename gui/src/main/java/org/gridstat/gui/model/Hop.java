package org.gridstat.gui.model;

/** One hop of an admitted path: the forwarding router and the next ({@code null}: delivery at the subscriber's link). */
public record Hop(String router, String next, long budgetNanos) {
}
