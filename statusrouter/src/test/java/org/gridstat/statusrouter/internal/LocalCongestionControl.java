package org.gridstat.statusrouter.internal;

import org.gridstat.core.congestion.BandwidthReassignment;
import org.gridstat.core.congestion.CongestionPolicy;
import org.gridstat.statusrouter.spi.CongestionControl;
import org.gridstat.statusrouter.spi.NoticeChannels;
import org.gridstat.statusrouter.spi.NoticeHost;

/**
 * The reassignment of the congestion-control bundle without its notice channels (those are the
 * bundle's, tested there), for the router's own tests; counts the channels it was asked to open.
 */
final class LocalCongestionControl implements CongestionControl {
    int noticesOpened;
    NoticeHost host;

    @Override
    public CongestionPolicy newPolicy() {
        return new BandwidthReassignment();
    }

    @Override
    public NoticeChannels openNotices(NoticeHost router) {
        noticesOpened++;
        host = router;
        return null;
    }
}
