package org.gridstat.client.events;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A body in HTTP/1.1 chunks reads as its data, and malformed framing is refused. */
class ChunkedBodyTest {
    private static String decode(String chunked) throws IOException {
        return new String(new ChunkedBody(new ByteArrayInputStream(chunked.getBytes(StandardCharsets.US_ASCII))).readAllBytes(),
                StandardCharsets.US_ASCII);
    }

    @Test
    void chunksReadAsTheirData() throws IOException {
        assertEquals("event: flows\ndata: []\n\n", decode("d\r\nevent: flows\n\r\na;ext=1\r\ndata: []\n\n\r\n0\r\nTrailer: x\r\n\r\n"));
    }

    @Test
    void malformedFramingIsRefused() {
        assertThrows(IOException.class, () -> decode("zz\r\nabc\r\n0\r\n\r\n"));
        assertThrows(IOException.class, () -> decode("2\r\nabc\r\n0\r\n\r\n"), "a chunk longer than its size");
        assertThrows(IOException.class, () -> decode("5\r\nab"), "cut off");
        assertThrows(IOException.class, () -> decode("1".repeat(2000) + "\r\n"), "an endless size line");
    }
}
