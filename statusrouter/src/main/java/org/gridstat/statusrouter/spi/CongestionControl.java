package org.gridstat.statusrouter.spi;

import org.gridstat.core.congestion.CongestionPolicy;

/**
 * Cooperative congestion control, as a service a router binds when the bundle that provides it is
 * installed and the router's {@code congestion.control} setting asks for it.
 */
public interface CongestionControl {
    /**
     * A policy for one out-link; called once per link when a data plane starts, on its data path.
     * If it throws or returns {@code null}, that data plane runs without congestion control (logged).
     */
    CongestionPolicy newPolicy();

    /**
     * Opens a router's congestion-notice channels, or returns {@code null} after one log line
     * saying why not (the router then holds its flows and tells no previous hop); a throw is
     * taken as {@code null}, logged by the router.
     */
    NoticeChannels openNotices(NoticeHost router);
}
