package org.gridstat.rpc.client;

/** The post-condition report of a call, with the server's explanation when it failed. */
public record PostResult(PostOutcome outcome, String detail) {
}
