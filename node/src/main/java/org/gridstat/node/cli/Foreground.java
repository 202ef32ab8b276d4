package org.gridstat.node.cli;

import java.util.concurrent.CountDownLatch;

/** Keeps a started service running until SIGTERM or Ctrl-C, then closes it. */
final class Foreground {
    private Foreground() {
    }

    /** Prints the banner on standard error and blocks until the JVM is told to stop; returns 0. */
    static int run(AutoCloseable service, String banner) {
        CountDownLatch stopped = new CountDownLatch(1);
        ShutdownSignal.onShutdown(() -> {
            try {
                service.close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
            stopped.countDown();
        });
        System.err.println(banner + "; SIGTERM or Ctrl-C stops it");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
