package org.gridstat.node.cli;

/** Remembers that the JVM is shutting down (SIGTERM, Ctrl-C), so nobody calls System.exit then. */
final class ShutdownSignal {
    private static volatile boolean received;

    private ShutdownSignal() {
    }

    static void onShutdown(Runnable action) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            received = true;
            action.run();
        }, "gridstat-shutdown"));
    }

    static boolean received() {
        return received;
    }
}
