package org.gridstat.rpc.pubsub;

import static org.junit.jupiter.api.Assertions.*;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.gridstat.rpc.client.CallPolicy;
import org.gridstat.rpc.transport.Redundancy;
import org.junit.jupiter.api.Test;

/** What a caller is told when a call cannot be made, or the client closes before it ends. */
class RatatoskrClientTest {
    @Test
    void whenACallFailsItsPostconditionHasFailedBeforeItsResultCompletes() {
        RemoteCall rc = new RemoteCall();
        boolean[] postDoneWhenResultCompleted = new boolean[1];
        rc.result().whenComplete((r, e) -> postDoneWhenResultCompleted[0] = rc.postcondition().isCompletedExceptionally());
        rc.fail(new IllegalArgumentException("bad name"));
        assertTrue(postDoneWhenResultCompleted[0], "a caller woken by the result must see the post-condition failed too");
    }

    @Test
    void aCallThatCannotBeMadeOrOutlivesItsClientFailsItsFuturesWithTheReason() throws Exception {
        try (DatagramSocket nobody = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) { // no router answers
            RatatoskrClient client = RatatoskrClient.connect(TwoWayPlan.caller("svc", Duration.ofMillis(10),
                    Duration.ofMillis(1), 1), new InetSocketAddress("127.0.0.1", nobody.getLocalPort()),
                    new InetSocketAddress("127.0.0.1", 0), "operator1");
            CallPolicy policy = CallPolicy.of(new Redundancy(1, 1, 0, 3), 60_000_000_000L);
            RemoteCall badName = client.call("no spaces allowed", List.of(), policy);
            ExecutionException e = assertThrows(ExecutionException.class, () -> badName.result().get(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
            assertTrue(badName.postcondition().isCompletedExceptionally());

            RemoteCall waiting = client.call("breaker.open", List.of(52L), policy);
            Thread.sleep(50);
            assertFalse(waiting.result().isDone(), "no answer comes");
            client.close();
            e = assertThrows(ExecutionException.class, () -> waiting.result().get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());

            RemoteCall afterClose = client.call("breaker.open", List.of(52L), policy);
            e = assertThrows(ExecutionException.class, () -> afterClose.result().get(10, TimeUnit.SECONDS));
            assertInstanceOf(java.util.concurrent.RejectedExecutionException.class, e.getCause());
        }
    }
}
