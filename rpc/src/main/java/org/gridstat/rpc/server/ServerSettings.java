package org.gridstat.rpc.server;

/**
 * How an {@link RpcServer} bounds its memory of requests.
 *
 * @param windowNanos         the furthest ahead a request's deadline may lie: the server
 *                            remembers a request at least this long (default 60 s)
 * @param graceNanos          how long past its deadline and post-condition report a request is
 *                            still remembered, for late retries (default 1 s)
 * @param maxRequests         requests remembered at most (default 65,536)
 * @param maxSessions         client sessions remembered at most (default 4,096)
 */
public record ServerSettings(long windowNanos, long graceNanos, int maxRequests, int maxSessions) {
    public static final ServerSettings DEFAULT = new ServerSettings(60_000_000_000L, 1_000_000_000L, 65_536, 4_096);

    public ServerSettings {
        if (windowNanos <= 0 || graceNanos < 0 || maxRequests < 1 || maxSessions < 1) {
            throw new IllegalArgumentException("server settings: window > 0, grace >= 0, maxRequests and maxSessions >= 1");
        }
    }
}
