package org.gridstat.node;

import java.lang.reflect.Method;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Hands configurations to the Config Admin service inside the framework. The launcher and the
 * bundles have separate class spaces, so the Config Admin API is called through the interface as
 * the Config Admin bundle itself sees it.
 */
final class ConfigAdminBridge {
    private static final String CONFIGURATION_ADMIN = "org.osgi.service.cm.ConfigurationAdmin";
    private static final String CONFIGURATION = "org.osgi.service.cm.Configuration";

    private ConfigAdminBridge() {
    }

    static void apply(BundleContext context, Map<String, Map<String, Object>> configurations, long timeoutMillis)
            throws Exception {
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(context, CONFIGURATION_ADMIN, null);
        tracker.open(true);
        try {
            Object admin = tracker.waitForService(timeoutMillis);
            if (admin == null) {
                throw new IllegalStateException("Config Admin did not start within " + timeoutMillis + " ms");
            }
            ServiceReference<Object> ref = tracker.getServiceReference();
            Class<?> adminType = ref.getBundle().loadClass(CONFIGURATION_ADMIN);
            Class<?> configType = ref.getBundle().loadClass(CONFIGURATION);
            Method getConfiguration = adminType.getMethod("getConfiguration", String.class, String.class);
            Method update = configType.getMethod("update", Dictionary.class);
            for (Map.Entry<String, Map<String, Object>> e : configurations.entrySet()) {
                // "?" binds the configuration to any bundle, whichever component asks first.
                Object configuration = getConfiguration.invoke(admin, e.getKey(), "?");
                update.invoke(configuration, new Hashtable<>(e.getValue()));
            }
        } finally {
            tracker.close();
        }
    }
}
