package org.gridstat.congestion;

import org.gridstat.congestion.notice.NoticePlane;
import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.CongestionPolicy;
import org.gridstat.statusrouter.spi.CongestionControl;
import org.gridstat.statusrouter.spi.NoticeChannels;
import org.gridstat.statusrouter.spi.NoticeHost;
import org.osgi.service.component.annotations.Component;

/**
 * Cooperative congestion control as the thesis frames it: each out-link reassigns bandwidth to
 * congested HRT flows ({@link BandwidthReassignment}, its Algorithm 2), and a router tells the
 * previous hops of the flows that lent, up to their publishers, over TCP at its data port's number
 * ({@link NoticePlane}). Registered as a service when this bundle starts; a router whose
 * {@code congestion.control} setting asks for it binds it. Outside a framework, pass an instance
 * to {@link org.gridstat.statusrouter.api.EmbeddedRouter#start(java.util.Map, CongestionControl)}.
 */
@Component(service = CongestionControl.class)
public final class CooperativeCongestionControl implements CongestionControl {
    @Override
    public CongestionPolicy newPolicy() {
        return new BandwidthReassignment();
    }

    @Override
    public NoticeChannels openNotices(NoticeHost router) {
        return NoticePlane.start(router);
    }
}
