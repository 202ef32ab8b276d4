package org.gridstat.client.events;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void doublesFrom250MillisecondsToFiveSecondsAndStartsAgainAfterAStreamWentLive() {
        Backoff b = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(5));
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            waits.add(b.nextMillis());
        }
        assertEquals(List.of(250L, 500L, 1000L, 2000L, 4000L, 5000L, 5000L), waits);
        b.reset();
        assertEquals(250, b.nextMillis());
    }
}
