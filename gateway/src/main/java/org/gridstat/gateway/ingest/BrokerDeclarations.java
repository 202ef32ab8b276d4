package org.gridstat.gateway.ingest;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gridstat.client.BrokerConnection;
import org.gridstat.client.VariableDeclaration;
import org.gridstat.core.model.ServiceClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Declares variables to the broker on a thread of its own, so that a slow or absent broker never
 * holds up a device's session or its samples (they are published under the ids derived from
 * their names meanwhile). The latest declaration per variable is kept until the broker takes it:
 * memory is one entry per variable; a refusal is logged and retried with back-off up to a minute.
 */
public final class BrokerDeclarations implements Declarations, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerDeclarations.class);
    private static final long MIN_WAIT_MS = 200;
    private static final long MAX_WAIT_MS = 60_000;

    private final BrokerConnection broker;
    private final String router;
    private final Map<String, VariableDeclaration> pending = new LinkedHashMap<>();
    private final Thread thread;
    private volatile boolean closed;

    public BrokerDeclarations(BrokerConnection broker, String router) {
        this.broker = broker;
        this.router = router;
        this.thread = new Thread(this::run, "gridstat-gateway-declarations");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void declare(String name, int frameBytes, Duration interval, ServiceClass serviceClass) {
        synchronized (pending) {
            pending.put(name, VariableDeclaration.of(name, router, frameBytes, interval, serviceClass));
            pending.notifyAll();
        }
    }

    /** Declarations not yet taken by the broker. */
    public int pending() {
        synchronized (pending) {
            return pending.size();
        }
    }

    private void run() {
        long wait = MIN_WAIT_MS;
        while (!closed) {
            VariableDeclaration d;
            synchronized (pending) {
                while (pending.isEmpty() && !closed) {
                    try {
                        pending.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                d = pending.values().iterator().next();
            }
            try {
                broker.declare(d);
                LOG.info("declared {} at {} ({} B frames every {})", d.name(), router, d.frameBytes(), d.interval());
                synchronized (pending) {
                    pending.remove(d.name(), d); // unless a newer declaration replaced it meanwhile
                }
                wait = MIN_WAIT_MS;
            } catch (RuntimeException e) {
                LOG.warn("declaring {} to the broker failed, retrying in {} ms: {}", d.name(), wait, e.getMessage());
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException ie) {
                    return;
                }
                wait = Math.min(MAX_WAIT_MS, wait * 2);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
