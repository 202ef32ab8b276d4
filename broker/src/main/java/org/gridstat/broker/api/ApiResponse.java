package org.gridstat.broker.api;

import org.gridstat.core.management.ErrorDocument;

/**
 * A management API answer: HTTP status and the document to send as JSON ({@code null}: no body;
 * a {@code String}: YAML text).
 */
public record ApiResponse(int status, Object body) {
    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    public static ApiResponse error(int status, String message) {
        return new ApiResponse(status, new ErrorDocument(message));
    }
}
