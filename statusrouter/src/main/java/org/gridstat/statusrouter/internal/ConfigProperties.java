package org.gridstat.statusrouter.internal;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;

/**
 * A component property type read from a map of Config Admin properties, as Declarative Services
 * reads it (a method {@code node_id} is the key {@code node.id}; absent keys take the method's
 * default), so a configuration can be checked before a framework runs the component.
 */
final class ConfigProperties {
    private ConfigProperties() {
    }

    static <T> T of(Class<T> type, Map<String, ?> properties) {
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return m.getName().equals("toString") ? "properties " + properties : m.invoke(properties, args);
            }
            Object v = properties.get(m.getName().replace('_', '.'));
            return v == null ? m.getDefaultValue() : convert(m, v);
        });
        return type.cast(proxy);
    }

    private static Object convert(Method m, Object v) {
        Class<?> t = m.getReturnType();
        String key = m.getName().replace('_', '.');
        if (t == String[].class) {
            return v instanceof String[] a ? a : new String[] {String.valueOf(v)};
        }
        if (t == String.class) {
            return String.valueOf(v);
        }
        if (t == boolean.class) {
            return v instanceof Boolean b ? b : Boolean.parseBoolean(String.valueOf(v));
        }
        try {
            if (t == int.class) {
                return v instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(v).trim());
            }
            if (t == long.class) {
                return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).trim());
            }
            if (t == double.class) {
                return v instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(v).trim());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + v + "' is not a number");
        }
        throw new IllegalStateException(key + ": no conversion to " + t);
    }
}
