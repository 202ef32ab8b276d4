package org.gridstat.broker.api;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Strict JSON means one value per field. A body naming a field twice is ambiguous (which
 * one did the client mean? a proxy or a log may read the other), and was silently taken as the last.
 */
class StrictJsonTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aFieldGivenTwiceInADeclarationIsRefused() {
        RequestParser.BadRequest e = assertThrows(RequestParser.BadRequest.class, () -> RequestParser.declaration(b(
                "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,\"rateHz\":60,\"rateHz\":120}")));
        assertTrue(e.getMessage().contains("rateHz"), e.getMessage());
    }

    @Test
    void aFieldGivenTwiceInAModificationIsRefused() {
        assertThrows(RequestParser.BadRequest.class, () -> RequestParser.modification(b(
                "{\"qos\":{\"serviceClass\":\"HRT\"},\"qos\":{\"rateHz\":10}}"), 4));
    }

    @Test
    void contentAfterTheDocumentIsRefused() {
        assertThrows(RequestParser.BadRequest.class, () -> RequestParser.modification(b(
                "{\"qos\":{\"rateHz\":30}} {\"qos\":{\"serviceClass\":\"BE\"}}"), 4));
        assertThrows(RequestParser.BadRequest.class, () -> RequestParser.declaration(b(
                "{\"name\":\"s1/pmu1/freq\",\"router\":\"a\",\"frameBytes\":260,\"rateHz\":60}]")));
    }
}
