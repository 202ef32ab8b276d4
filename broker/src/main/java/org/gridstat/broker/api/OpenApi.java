package org.gridstat.broker.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The APIs' OpenAPI descriptions, shipped in the bundle and served as they are. */
final class OpenApi {
    private static final java.util.Map<String, String> TEXTS = new java.util.concurrent.ConcurrentHashMap<>();

    private OpenApi() {
    }

    /** A leaf broker's description. */
    static String text() {
        return text("openapi.yaml");
    }

    static String text(String file) {
        return TEXTS.computeIfAbsent(file, f -> {
            String resource = "/org/gridstat/broker/api/" + f;
            try (InputStream in = OpenApi.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the bundle lacks " + resource);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
