package org.gridstat.broker.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The API's OpenAPI description, shipped in the bundle and served as it is. */
final class OpenApi {
    private static final String RESOURCE = "/org/gridstat/broker/api/openapi.yaml";
    private static volatile String text;

    private OpenApi() {
    }

    static String text() {
        String t = text;
        if (t == null) {
            try (InputStream in = OpenApi.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the bundle lacks " + RESOURCE);
                }
                t = text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return t;
    }
}
