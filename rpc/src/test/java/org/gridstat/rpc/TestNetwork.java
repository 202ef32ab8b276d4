package org.gridstat.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.gridstat.rpc.transport.FrameKind;
import org.gridstat.rpc.transport.Outlet;
import org.gridstat.rpc.transport.TransportFrame;
import org.gridstat.rpc.transport.TwoWayEndpoint;

/**
 * Two directions between a client and a server on {@link ManualTimers}: each frame published
 * arrives a fixed delay later on the other side, unless a drop rule says it is lost. Every frame
 * sent is logged, with its time, for the tests to assert on.
 */
public final class TestNetwork {
    public record Sent(long at, boolean fromClient, FrameKind kind, long messageId, int attempt, int copy, int paths,
                       byte[] frame) {
    }

    private final ManualTimers timers;
    private final long delayNanos;
    public final List<Sent> sent = new ArrayList<>();
    private Predicate<Sent> drop = s -> false;
    private TwoWayEndpoint client;
    private TwoWayEndpoint server;

    public TestNetwork(ManualTimers timers, long delayNanos) {
        this.timers = timers;
        this.delayNanos = delayNanos;
    }

    public void connect(TwoWayEndpoint client, TwoWayEndpoint server) {
        this.client = client;
        this.server = server;
    }

    /** Frames for which {@code rule} holds are lost. */
    public void drop(Predicate<Sent> rule) {
        this.drop = rule;
    }

    public Outlet fromClient() {
        return (paths, frame, length) -> carry(true, paths, frame, length);
    }

    public Outlet fromServer() {
        return (paths, frame, length) -> carry(false, paths, frame, length);
    }

    private void carry(boolean fromClient, int paths, byte[] frame, int length) {
        byte[] copy = java.util.Arrays.copyOf(frame, length);
        TransportFrame f = new TransportFrame();
        f.decode(copy, 0, length);
        Sent s = new Sent(timers.nowNanos(), fromClient, f.kind(), f.messageId(), f.attempt(), f.copy(), paths, copy);
        sent.add(s);
        if (drop.test(s)) {
            return;
        }
        // each path delivers its copy; the receiver drops the excess
        for (int p = 0; p < paths; p++) {
            timers.after(delayNanos + p * 1000L, () -> (fromClient ? server : client).receive(copy, 0, copy.length));
        }
    }

    public List<Sent> from(boolean client) {
        return sent.stream().filter(s -> s.fromClient() == client).toList();
    }
}
