package org.gridstat.statusrouter.internal;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Consumer;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.time.NanoClock;
import org.gridstat.statusrouter.spi.NoticeHost;

/** A running data plane as its congestion-notice channels see it. */
final class DataPlaneNoticeHost implements NoticeHost {
    private final String nodeId;
    private final List<OutLink> outLinks;
    private final DataPath dataPath;
    private final UpstreamHops hops;
    private final InetSocketAddress dataAddress;
    private final NanoClock clock;

    DataPlaneNoticeHost(RouterSettings settings, DataPath dataPath, UpstreamHops hops, InetSocketAddress dataAddress,
                        NanoClock clock) {
        this.nodeId = settings.nodeId;
        this.outLinks = settings.links.stream().map(l -> new OutLink(l.name, l.address.host())).toList();
        this.dataPath = dataPath;
        this.hops = hops;
        this.dataAddress = dataAddress;
        this.clock = clock;
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
        return dataAddress;
    }

    @Override
    public NanoClock clock() {
        return clock;
    }

    @Override
    public ControlLiveness.Timing timing() {
        return ControlLiveness.Timing.DEFAULT;
    }

    @Override
    public Upstream previousHop(int hop) {
        return hops.hop(hop);
    }

    @Override
    public void adviseTo(NoticeRelay.Advice out) {
        dataPath.adviseTo(out);
    }

    @Override
    public void onRelay(Consumer<NoticeRelay> task) {
        dataPath.execute(() -> task.accept(dataPath.relay())); // never null: notices run with congestion control
    }
}
