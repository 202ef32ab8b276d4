package org.gridstat.node;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/**
 * Why a Declarative Services component that would provide a service failed to activate, as the
 * framework's Service Component Runtime reports it. Read by reflection: the runtime's API lives in
 * the framework's class space, not in the launcher's.
 */
final class ComponentFailures {
    private static final String RUNTIME = "org.osgi.service.component.runtime.ServiceComponentRuntime";
    /** {@code ComponentConfigurationDTO.FAILED_ACTIVATION}. */
    private static final int FAILED_ACTIVATION = 16;

    private ComponentFailures() {
    }

    /** The failure of a component providing {@code serviceInterface}, or {@code null} if none failed (or no runtime). */
    static String of(BundleContext context, String serviceInterface) {
        ServiceReference<?> ref = context.getServiceReference(RUNTIME);
        if (ref == null) {
            return null;
        }
        Object scr = context.getService(ref);
        try {
            if (scr == null) {
                return null;
            }
            Class<?> api = scr.getClass().getClassLoader().loadClass(RUNTIME);
            Method descriptions = api.getMethod("getComponentDescriptionDTOs", Bundle[].class);
            Method configurations = Arrays.stream(api.getMethods())
                    .filter(m -> m.getName().equals("getComponentConfigurationDTOs")).findFirst().orElseThrow();
            for (Object d : (Collection<?>) descriptions.invoke(scr, (Object) new Bundle[0])) {
                String[] services = (String[]) d.getClass().getField("serviceInterfaces").get(d);
                if (services == null || !Arrays.asList(services).contains(serviceInterface)) {
                    continue;
                }
                for (Object c : (Collection<?>) configurations.invoke(scr, d)) {
                    if (c.getClass().getField("state").getInt(c) == FAILED_ACTIVATION) {
                        Object failure = c.getClass().getField("failure").get(c);
                        return failure == null ? "activation failed" : failure.toString();
                    }
                }
            }
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // no answer from the runtime: the caller waits for the service as before
        } finally {
            context.ungetService(ref);
        }
    }
}
