package org.gridstat.tests;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A process that opens idle TCP connections and holds them until its standard input closes: a
 * test's second pair of hands when one JVM's descriptor limit is below the connections it needs.
 * Prints {@code held N} once it holds them (or as many as it could open).
 */
public final class IdleConnectionHolder {
    private IdleConnectionHolder() {
    }

    public static void main(String[] args) throws IOException {
        InetSocketAddress to = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int n = Integer.parseInt(args[2]);
        List<SocketChannel> held = new ArrayList<>(n);
        try {
            while (held.size() < n) {
                held.add(SocketChannel.open(to));
            }
        } catch (IOException e) {
            System.err.println("stopped after " + held.size() + " connections: " + e);
        }
        System.out.println("held " + held.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold until the test closes our standard input (or dies)
        }
    }
}
