package org.gridstat.client.events;

import java.io.IOException;
import java.io.InputStream;

/**
 * A body sent in HTTP/1.1 chunks, as a proxy in front of the broker may send the stream: the
 * chunks' data in order, then the end. A chunk-size line longer than {@value #MAX_SIZE_LINE}
 * bytes or a chunk over 2 GiB is refused as malformed.
 */
final class ChunkedBody extends InputStream {
    static final int MAX_SIZE_LINE = 1024;

    private final InputStream in;
    /** Bytes left of the current chunk; 0 at a chunk's end, -1 after the last chunk. */
    private long left;

    ChunkedBody(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (left == 0) {
            left = nextChunk();
        }
        if (left < 0) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n < 0) {
            throw new IOException("the connection ended within a chunk");
        }
        left -= n;
        if (left == 0) {
            endOfChunk();
        }
        return n;
    }

    /** The next chunk's size, or -1 if it was the last (its trailer read). */
    private long nextChunk() throws IOException {
        String line = line();
        int semicolon = line.indexOf(';'); // chunk extensions mean nothing here
        String size = (semicolon < 0 ? line : line.substring(0, semicolon)).trim();
        long n;
        try {
            n = Long.parseLong(size, 16);
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunk size: '" + size + "'");
        }
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new IOException("chunk size out of range: " + size);
        }
        if (n == 0) {
            while (!line().isEmpty()) {
                // trailer fields: none matter here
            }
            return -1;
        }
        return n;
    }

    private void endOfChunk() throws IOException {
        if (!line().isEmpty()) {
            throw new IOException("a chunk is longer than its size says");
        }
    }

    private String line() throws IOException {
        StringBuilder s = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("the connection ended within a chunk's framing");
            }
            if (c == '\n') {
                int end = s.length() > 0 && s.charAt(s.length() - 1) == '\r' ? s.length() - 1 : s.length();
                return s.substring(0, end);
            }
            if (s.length() >= MAX_SIZE_LINE) {
                throw new IOException("a chunk-size line over " + MAX_SIZE_LINE + " bytes");
            }
            s.append((char) c);
        }
    }
}
