package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.gridstat.core.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The API's connection cap on a manual clock: who makes room for a new connection. */
class ConnectionCapTest {
    private final ManualClock clock = new ManualClock(0);
    private final ConnectionCap cap = new ConnectionCap(3, clock);
    private final List<String> closed = new ArrayList<>();

    private ConnectionCap.Slot open(String name) {
        ConnectionCap.Slot s = cap.admit(() -> closed.add(name));
        clock.advance(1_000_000);
        return s;
    }

    @Test
    void atTheCapTheLongestIdleConnectionWithoutARequestMakesRoom() {
        ConnectionCap.Slot a = open("a");
        ConnectionCap.Slot b = open("b");
        ConnectionCap.Slot c = open("c");
        a.active(); // a was the oldest, but spoke last: b is now the longest idle
        clock.advance(1_000_000);
        assertNotNull(open("d"));
        assertEquals(List.of("b"), closed);
        assertEquals(3, cap.open());
        assertEquals(1, cap.displaced());

        c.inProgress(true); // c, now the longest idle, has a request in progress: a goes
        assertNotNull(open("e"));
        assertEquals(List.of("b", "a"), closed);
    }

    @Test
    void whenEveryConnectionHasARequestInProgressTheNewOneIsRefused() {
        List<ConnectionCap.Slot> slots = new ArrayList<>();
        for (String n : List.of("a", "b", "c")) {
            ConnectionCap.Slot s = open(n);
            s.inProgress(true);
            slots.add(s);
        }
        assertNull(cap.admit(() -> closed.add("refused")));
        assertEquals(1, cap.refused());
        assertEquals(List.of(), closed, "nobody closed");
        slots.get(1).inProgress(false);
        assertNotNull(open("d"));
        assertEquals(List.of("b"), closed);
        slots.get(0).release(); // a connection that closes frees its place without displacing anyone
        assertNotNull(open("e"));
        assertEquals(List.of("b"), closed);
        assertEquals(3, cap.open());
    }

    @Test
    void withNoIdleConnectionTheOneSendingItsRequestTheLongestMakesRoomButNeverOneBeingAnswered() {
        ConnectionCap.Slot a = open("a");
        ConnectionCap.Slot b = open("b");
        ConnectionCap.Slot c = open("c");
        a.state(true, false); // answered by the broker: never displaced
        clock.advance(1_000_000);
        c.state(false, true); // began its request first: the slowest sender
        clock.advance(1_000_000);
        b.state(false, true);
        open("d").state(true, false);
        assertEquals(List.of("c"), closed);
        clock.advance(1_000_000);
        b.state(false, true); // more bytes of the same request: still counted from its first
        assertNotNull(open("e"));
        assertEquals(List.of("c", "b"), closed);
    }
}
