package org.gridstat.broker.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A mutating request the broker made, by the {@code Idempotency-Key} its client gave, with the
 * fingerprint of what it asked and the answer it got: a repeat of the key is answered alike, a
 * different request under the same key refused. Stored with the change the request made, in the
 * same transaction.
 *
 * @param body the answer's JSON document, {@code null} for none
 */
public record RememberedRequest(String key, String fingerprint, int status, JsonNode body) {
    public RememberedRequest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** What a request was answered: status and JSON body. */
    public record Answer(int status, JsonNode body) {
    }
}
