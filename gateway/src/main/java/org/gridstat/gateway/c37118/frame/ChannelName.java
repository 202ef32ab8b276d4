package org.gridstat.gateway.c37118.frame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A station or channel name exactly as sent: 16 ASCII bytes, space padded, in CFG-1 and CFG-2; a
 * length-prefixed UTF-8 string of up to 255 bytes in CFG-3. The bytes are kept so a frame
 * re-encodes bit for bit even when a device pads with NULs or sends bytes that are not UTF-8.
 */
public final class ChannelName {
    /** The fixed size of a CFG-1/2 name field. */
    public static final int FIXED_LENGTH = 16;
    /** The most a CFG-3 name can hold: its length prefix is one byte. */
    public static final int MAX_PREFIXED_LENGTH = 255;

    private final byte[] bytes;

    private ChannelName(byte[] bytes) {
        this.bytes = bytes;
    }

    public static ChannelName ofBytes(byte[] bytes) {
        return new ChannelName(bytes.clone());
    }

    /** A CFG-1/2 name: ASCII, cut or space padded to 16 bytes. */
    public static ChannelName fixed(String text) {
        byte[] b = new byte[FIXED_LENGTH];
        Arrays.fill(b, (byte) ' ');
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, b, 0, Math.min(t.length, FIXED_LENGTH));
        return new ChannelName(b);
    }

    /** A CFG-3 name: UTF-8, at most 255 bytes. */
    public static ChannelName prefixed(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_PREFIXED_LENGTH) {
            throw new IllegalArgumentException("a CFG-3 name holds at most 255 bytes: " + text);
        }
        return new ChannelName(b);
    }

    public int length() {
        return bytes.length;
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    /** The name as text (UTF-8, of which ASCII is a subset), padding kept. */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The name without the spaces and NULs devices pad with. */
    public String trimmed() {
        int end = bytes.length;
        while (end > 0 && (bytes[end - 1] == ' ' || bytes[end - 1] == 0)) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChannelName n && Arrays.equals(bytes, n.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return trimmed();
    }
}
