package org.gridstat.statusrouter.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.gridstat.core.forward.StaticForwardingTable;
import org.gridstat.core.model.Endpoint;

/** A router's validated configuration. Every problem is reported with the name of its key. */
final class RouterSettings {
    enum Transport { AUTO, EPOLL, NIO }

    static final int MAX_EVENT_LOOPS = 64;

    final String nodeId;
    final Endpoint bind;
    final int eventLoops;
    final Transport transport;
    final int socketBufferBytes;
    final StaticForwardingTable table;

    RouterSettings(String nodeId, Endpoint bind, int eventLoops, Transport transport, int socketBufferBytes,
                   StaticForwardingTable table) {
        this.nodeId = nodeId;
        this.bind = bind;
        this.eventLoops = eventLoops;
        this.transport = transport;
        this.socketBufferBytes = socketBufferBytes;
        this.table = table;
    }

    /**
     * @throws IllegalArgumentException listing every bad key
     */
    static RouterSettings of(String nodeId, String bind, int eventLoops, String transport, int socketBufferBytes,
                             String[] routes) {
        List<String> problems = new ArrayList<>();
        if (nodeId == null || nodeId.isBlank()) {
            problems.add("node.id is empty");
        }
        Endpoint bindEndpoint = null;
        try {
            bindEndpoint = Endpoint.parse(bind);
        } catch (IllegalArgumentException e) {
            problems.add("data.bind: " + e.getMessage());
        }
        if (eventLoops < 1 || eventLoops > MAX_EVENT_LOOPS) {
            problems.add("event.loops must be between 1 and " + MAX_EVENT_LOOPS + ", got " + eventLoops);
        }
        Transport t = null;
        try {
            t = Transport.valueOf(transport.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            problems.add("transport must be auto, epoll or nio, got '" + transport + "'");
        }
        if (socketBufferBytes < 65536) {
            problems.add("socket.buffer.bytes must be at least 65536, got " + socketBufferBytes);
        }
        StaticForwardingTable table = null;
        try {
            table = StaticForwardingTable.parse(routes == null ? List.of() : List.of(routes));
        } catch (IllegalArgumentException e) {
            problems.add("routes: " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid status router configuration: " + String.join("; ", problems));
        }
        return new RouterSettings(nodeId, bindEndpoint, eventLoops, t, socketBufferBytes, table);
    }
}
