package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CompletionException;
import org.gridstat.broker.StoredButNotInstalledException;
import org.gridstat.broker.store.FencedWriteException;
import org.gridstat.core.management.ErrorDocument;
import org.junit.jupiter.api.Test;

/** What a failure tells the client about whether its change was made. */
class FailureAnswersTest {
    private static String message(ApiResponse r) {
        return ((ErrorDocument) r.body()).error();
    }

    @Test
    void aFailureAfterTheChangeWasStoredIsNeverAnsweredAsARefusal() {
        ApiResponse r = ManagementRoutes.failure(new CompletionException(new StoredButNotInstalledException(
                "subscription 4 admitted and stored, but sending it to the routers failed: string of 2000 bytes exceeds 1024",
                new IllegalArgumentException("string of 2000 bytes exceeds 1024"))));
        assertEquals(500, r.status());
        assertTrue(message(r).startsWith("subscription 4 admitted and stored"), message(r));
    }

    @Test
    void aFencedWriteIsNotMadeAndMaySafelyBeSentAgain() {
        ApiResponse r = ManagementRoutes.failure(new CompletionException(new FencedWriteException(
                "ZooKeeper transaction failed: another replica has claimed leadership, BADVERSION")));
        assertEquals(503, r.status());
        assertTrue(message(r).startsWith("not made: another broker replica has taken the lead"), message(r));
    }

    @Test
    void aRefusalBeforeAnythingWasStoredIs400() {
        assertEquals(400, ManagementRoutes.failure(new IllegalArgumentException("no router 'zz' in the topology")).status());
    }
}
