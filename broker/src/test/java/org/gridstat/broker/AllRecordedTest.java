package org.gridstat.broker;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * A change of several subscriptions is recorded as several journal entries: what they say
 * together. A failure to store must not be reported as "stored but not sent", whichever entry failed first.
 */
class AllRecordedTest {
    private static CompletableFuture<Void> notSent() {
        return CompletableFuture.failedFuture(new CompletionException(
                new StoredButNotInstalledException("moved and stored, but sending it to the routers failed", null)));
    }

    private static Throwable failure(CompletableFuture<Void> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return e.getCause();
    }

    @Test
    void aFailureToStoreWinsOverAnEarlierFailureToSend() {
        IllegalStateException journal = new IllegalStateException("the journal refused the write");
        Throwable t = failure(QosBroker.allRecorded(List.of(notSent(), CompletableFuture.failedFuture(journal))));
        assertSame(journal, t, "the growth was not stored: not 'stored but not sent'");
    }

    @Test
    void whenEverythingWasStoredAFailureToSendIsWhatIsSaid() {
        Throwable t = failure(QosBroker.allRecorded(List.of(CompletableFuture.completedFuture(null), notSent())));
        assertInstanceOf(StoredButNotInstalledException.class, t);
        assertNull(QosBroker.allRecorded(List.of(CompletableFuture.completedFuture(null),
                CompletableFuture.completedFuture(null))).join());
    }

    @Test
    void itIsDoneOnlyWhenEveryEntryIs() {
        CompletableFuture<Void> slow = new CompletableFuture<>();
        CompletableFuture<Void> all = QosBroker.allRecorded(List.of(notSent(), slow));
        assertFalse(all.isDone(), "one entry still being written");
        slow.complete(null);
        assertInstanceOf(StoredButNotInstalledException.class, failure(all));
    }
}
