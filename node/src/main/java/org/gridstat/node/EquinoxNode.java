package org.gridstat.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node: an Equinox framework with Felix SCR, Config Admin and the node's bundles, configured
 * from a {@link NodeConfig}. SLF4J is shared from the launcher's class path, so bundles log through
 * the launcher's logging backend.
 */
public final class EquinoxNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EquinoxNode.class);
    /** How long to wait for services to appear and for the framework to stop. */
    public static final long TIMEOUT_MILLIS = 15_000;

    private final Framework framework;
    private final Path storage;
    private final boolean temporaryStorage;

    private EquinoxNode(Framework framework, Path storage, boolean temporaryStorage) {
        this.framework = framework;
        this.storage = storage;
        this.temporaryStorage = temporaryStorage;
    }

    /**
     * Starts a framework, installs and starts every bundle in {@code bundles}, and applies the
     * node's configurations.
     *
     * @throws NodeStartException if the framework, a bundle or a configuration fails; nothing is left running
     */
    public static EquinoxNode start(Path bundles, NodeConfig config) {
        List<Path> jars = bundleJars(bundles);
        boolean temporary = config.storage() == null;
        Path storage;
        try {
            storage = temporary ? Files.createTempDirectory("gridstat-" + config.nodeId() + "-") : config.storage();
            Files.createDirectories(storage);
        } catch (IOException e) {
            throw new NodeStartException("cannot create framework storage: " + e.getMessage(), e);
        }
        Map<String, String> props = new HashMap<>();
        props.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        props.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        props.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, sharedLoggingPackages());
        props.put("gridstat.node.id", config.nodeId());
        Framework framework = ServiceLoader.load(FrameworkFactory.class).findFirst()
                .orElseThrow(() -> new NodeStartException("no OSGi framework on the class path", null))
                .newFramework(props);
        EquinoxNode node = new EquinoxNode(framework, storage, temporary);
        try {
            framework.init();
            BundleContext context = framework.getBundleContext();
            List<Bundle> installed = new ArrayList<>();
            for (Path jar : jars) {
                installed.add(context.installBundle(jar.toUri().toString()));
            }
            framework.start();
            for (Bundle b : installed) {
                if (b.getHeaders().get(Constants.FRAGMENT_HOST) == null) {
                    b.start();
                }
            }
            ConfigAdminBridge.apply(context, config.configurations(), TIMEOUT_MILLIS);
            LOG.info("node {} started: {} bundles from {}", config.nodeId(), installed.size(), bundles);
            return node;
        } catch (BundleException e) {
            node.close();
            throw new NodeStartException("bundle failed to start: " + e.getMessage(), e);
        } catch (Exception e) {
            node.close();
            throw new NodeStartException("node failed to start: " + e.getMessage(), e);
        }
    }

    private static List<Path> bundleJars(Path bundles) {
        if (!Files.isDirectory(bundles)) {
            throw new NodeStartException("bundle folder " + bundles + " does not exist; build the distribution first", null);
        }
        try (Stream<Path> s = Files.list(bundles)) {
            List<Path> jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
            if (jars.isEmpty()) {
                throw new NodeStartException("bundle folder " + bundles + " holds no jar", null);
            }
            return jars;
        } catch (IOException e) {
            throw new NodeStartException("cannot list " + bundles + ": " + e.getMessage(), e);
        }
    }

    private static String sharedLoggingPackages() {
        Properties p = new Properties();
        try (InputStream in = EquinoxNode.class.getResourceAsStream("/gridstat-node.properties")) {
            p.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("gridstat-node.properties is missing from the launcher jar", e);
        }
        String v = p.getProperty("slf4j.version");
        return Stream.of("org.slf4j", "org.slf4j.event", "org.slf4j.helpers", "org.slf4j.spi")
                .map(pkg -> pkg + ";version=" + v).collect(Collectors.joining(","));
    }

    /**
     * Waits until a service of the named interface is registered, or until the component that
     * would provide it has failed to activate ({@link #componentFailure}).
     *
     * @return the service's properties, or {@code null} if it did not appear in time or its component failed
     */
    public Map<String, Object> awaitService(String interfaceName, long timeoutMillis) throws InterruptedException {
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(framework.getBundleContext(), interfaceName, null);
        tracker.open(true);
        try {
            long end = System.nanoTime() + timeoutMillis * 1_000_000;
            while (tracker.waitForService(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000))) == null) {
                if (System.nanoTime() >= end || componentFailure(interfaceName) != null) {
                    return null;
                }
            }
            var ref = tracker.getServiceReference();
            Map<String, Object> props = new HashMap<>();
            for (String key : ref.getPropertyKeys()) {
                props.put(key, ref.getProperty(key));
            }
            return props;
        } finally {
            tracker.close();
        }
    }

    /**
     * Installs and starts the bundle {@code jar} in this running node (the components that take
     * its services bind them, restarting if their reference is static); returns its symbolic name.
     */
    public String deploy(Path jar) {
        try {
            Bundle b = framework.getBundleContext().installBundle(jar.toUri().toString());
            b.start();
            return b.getSymbolicName();
        } catch (BundleException e) {
            throw new IllegalStateException("cannot deploy " + jar + ": " + e.getMessage(), e);
        }
    }

    /** Stops and uninstalls the bundle named {@code symbolicName}; whether one was there. */
    public boolean undeploy(String symbolicName) {
        for (Bundle b : framework.getBundleContext().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                try {
                    b.uninstall();
                    return true;
                } catch (BundleException e) {
                    throw new IllegalStateException("cannot undeploy " + symbolicName + ": " + e.getMessage(), e);
                }
            }
        }
        return false;
    }

    /** Why the component that would provide the named service failed to activate; {@code null} if it did not. */
    public String componentFailure(String interfaceName) {
        return ComponentFailures.of(framework.getBundleContext(), interfaceName);
    }

    /** Bundles that are neither active nor fragments, as "name state" lines, for diagnosis. */
    public List<String> inactiveBundles() {
        List<String> out = new ArrayList<>();
        for (Bundle b : framework.getBundleContext().getBundles()) {
            boolean fragment = b.getHeaders().get(Constants.FRAGMENT_HOST) != null;
            if (b.getState() != Bundle.ACTIVE && !fragment) {
                out.add(b.getSymbolicName() + " state " + b.getState());
            }
        }
        return out;
    }

    /** Blocks until the framework stops, by {@link #close()} from another thread or from inside. */
    public void awaitStop() throws InterruptedException {
        framework.waitForStop(0);
    }

    /** Stops the framework (components deactivate, sockets close) and waits for it to finish. */
    @Override
    public void close() {
        try {
            if ((framework.getState() & (Bundle.STARTING | Bundle.ACTIVE | Bundle.STOPPING)) != 0) {
                stopServiceConsumersFirst();
                framework.stop();
                FrameworkEvent e = framework.waitForStop(TIMEOUT_MILLIS);
                if (e.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                    LOG.warn("framework did not stop within {} ms", TIMEOUT_MILLIS);
                }
            }
        } catch (BundleException e) {
            LOG.warn("stopping the framework: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (temporaryStorage) {
                deleteTree(storage);
            }
        }
    }

    /**
     * Stops each bundle that requires a service another active bundle provides (its manifest's
     * {@code osgi.service} requirements and capabilities) before that bundle, consumers first. The
     * framework alone stops bundles in the reverse of their installation, so one deployed into the
     * running node (congestion control) would stop before the status router that took its service
     * through a static reference, and the router would be started again without it, its ports bound
     * and its broker dialled, on the way down.
     */
    private void stopServiceConsumersFirst() {
        List<Bundle> active = new ArrayList<>();
        for (Bundle b : framework.getBundleContext().getBundles()) {
            if (b.getBundleId() != 0 && b.getState() == Bundle.ACTIVE) {
                active.add(b);
            }
        }
        boolean stopped = true;
        while (stopped) {
            stopped = false;
            for (Bundle b : List.copyOf(active)) {
                boolean consumer = active.stream().anyMatch(other -> other != b && requiresServiceOf(b, other));
                boolean needed = active.stream().anyMatch(other -> other != b && requiresServiceOf(other, b));
                if (consumer && !needed) {
                    try {
                        b.stop(Bundle.STOP_TRANSIENT);
                    } catch (BundleException | IllegalStateException e) {
                        LOG.warn("stopping {}: {}", b.getSymbolicName(), e.getMessage());
                    }
                    active.remove(b);
                    stopped = true;
                }
            }
        }
    }

    /** Whether {@code consumer} declares a requirement for a service {@code provider} declares. */
    private static boolean requiresServiceOf(Bundle consumer, Bundle provider) {
        var wants = consumer.adapt(org.osgi.framework.wiring.BundleRevision.class);
        var gives = provider.adapt(org.osgi.framework.wiring.BundleRevision.class);
        if (wants == null || gives == null) {
            return false;
        }
        for (var requirement : wants.getDeclaredRequirements("osgi.service")) {
            String filter = requirement.getDirectives().get("filter");
            if (filter == null) {
                continue;
            }
            try {
                org.osgi.framework.Filter f = org.osgi.framework.FrameworkUtil.createFilter(filter);
                for (var capability : gives.getDeclaredCapabilities("osgi.service")) {
                    if (f.matches(capability.getAttributes())) {
                        return true;
                    }
                }
            } catch (org.osgi.framework.InvalidSyntaxException e) {
                LOG.debug("{}: osgi.service filter {}: {}", consumer.getSymbolicName(), filter, e.getMessage());
            }
        }
        return false;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("could not remove framework storage {}: {}", root, e.getMessage());
        }
    }

    /** A node that could not start; whatever it had started has been stopped. */
    public static final class NodeStartException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NodeStartException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
