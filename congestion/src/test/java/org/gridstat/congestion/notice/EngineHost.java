package org.gridstat.congestion.notice;

import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.forward.EventReferences;
import org.gridstat.core.forward.ForwardingEngine;
import org.gridstat.core.sched.EstimatorSettings;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.core.time.NanoClock;
import org.gridstat.core.time.SystemNanoClock;
import org.gridstat.statusrouter.spi.NoticeHost;

/**
 * A router's data path as its notice channels see it, for their tests: core's forwarding engine
 * with bandwidth reassignment and a notice relay, on one loop, as a status router runs them.
 */
final class EngineHost implements NoticeHost {
    private static final EventReferences<Object> NO_REFERENCES = new EventReferences<>() {
        @Override
        public void retain(Object event) {
        }

        @Override
        public void release(Object event) {
        }
    };

    final EventLoop loop;
    final ForwardingEngine<Object> engine;
    final NoticeRelay relay;
    private final String nodeId;
    private final List<OutLink> outLinks;
    private final List<Upstream> previousHops = new ArrayList<>();
    private final InetSocketAddress at;
    private volatile ControlLiveness.Timing timing;
    private volatile NoticeRelay.Advice advice = (hop, variable, rate) -> { };

    /** Made on {@code loop}, where the engine and its relay are then used. */
    EngineHost(EventLoop loop, String nodeId, List<OutLink> outLinks, long linkCapacity, long periodNanos,
               InetSocketAddress at, ControlLiveness.Timing timing) {
        this.loop = loop;
        this.nodeId = nodeId;
        this.outLinks = List.copyOf(outLinks);
        this.at = at;
        this.timing = timing;
        List<LinkSpec> links = outLinks.stream().map(l -> LinkSpec.ofPercent(linkCapacity, 50, 30, 20, 0)).toList();
        this.engine = new ForwardingEngine<>(links, 64, NO_REFERENCES, new EstimatorSettings(periodNanos, 0.5),
                SystemNanoClock.INSTANCE.nanoTime());
        this.relay = new NoticeRelay(engine, (hop, variable, rate) -> advice.advise(hop, variable, rate));
        engine.useCongestionControl(BandwidthReassignment::new, relay::decided);
    }

    /** The heartbeats of the next notice channels opened. */
    void timing(ControlLiveness.Timing next) {
        timing = next;
    }

    /** Numbers a previous router as the data plane does for a flow's {@code upstreamHops}. */
    synchronized int number(Upstream hop) {
        int known = previousHops.indexOf(hop);
        if (known >= 0) {
            return known;
        }
        previousHops.add(hop);
        return previousHops.size() - 1;
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public List<OutLink> outLinks() {
        return outLinks;
    }

    @Override
    public InetSocketAddress dataAddress() {
        return at;
    }

    @Override
    public NanoClock clock() {
        return SystemNanoClock.INSTANCE;
    }

    @Override
    public ControlLiveness.Timing timing() {
        return timing;
    }

    @Override
    public synchronized Upstream previousHop(int hop) {
        return hop >= 0 && hop < previousHops.size() ? previousHops.get(hop) : null;
    }

    @Override
    public void adviseTo(NoticeRelay.Advice out) {
        advice = out;
    }

    @Override
    public void onRelay(Consumer<NoticeRelay> task) {
        loop.execute(() -> task.accept(relay));
    }
}
