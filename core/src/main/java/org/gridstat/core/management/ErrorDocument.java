package org.gridstat.core.management;

/**
 * Why a request failed; {@code leader} is the leader's API address when a standby answers
 * (status 503), otherwise absent.
 */
public record ErrorDocument(String error, String leader) {
    public ErrorDocument(String error) {
        this(error, null);
    }
}
