package org.gridstat.core.model;

import java.util.Objects;

/**
 * A UDP endpoint as written in configuration: a host (name or literal address) and a port. It is
 * only text here; resolving it is the job of the layer that owns sockets.
 */
public final class Endpoint {
    private final String host;
    private final int port;

    public Endpoint(String host, int port) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("endpoint host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("endpoint port " + port + " is outside 0..65535");
        }
        this.host = host;
        this.port = port;
    }

    /** Parses {@code host:port} or {@code [ipv6]:port}. */
    public static Endpoint parse(String text) {
        Objects.requireNonNull(text, "endpoint");
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException("endpoint '" + text + "' is not host:port");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("endpoint '" + text + "': write IPv6 addresses as [address]:port");
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("endpoint '" + text + "': port is not a number");
        }
        return new Endpoint(host, port);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint && ((Endpoint) o).host.equals(host) && ((Endpoint) o).port == port;
    }

    @Override
    public int hashCode() {
        return host.hashCode() * 31 + port;
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
