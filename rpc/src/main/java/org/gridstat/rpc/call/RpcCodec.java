package org.gridstat.rpc.call;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bytes of {@link RpcMessage}s inside a 2WoPS DATA frame (big-endian; {@code docs/rpc.md}):
 *
 * <pre>
 * u8 type (1 REQUEST, 2 REPLY, 3 POST) · u8 version 1 · u64 session · u64 request id, then
 * REQUEST: i64 deadline (epoch ns) · u8 retries · str8 caller · str8 operation · u8 count · value*
 * REPLY:   u8 code · value (tag 0: none) · i64 post due (ns, -1 none) · str16 detail
 * POST:    u8 holds (0/1) · str16 detail
 * value:   u8 tag (1 i64, 2 f64, 3 u8 boolean, 4 str16 text)
 * </pre>
 *
 * Decoding validates every length, tag, range and the UTF-8 of every string, and rejects trailing
 * bytes; a rejection says what was wrong, and the ids when they could be read (so the server can
 * answer a malformed request rather than leave its caller waiting).
 */
public final class RpcCodec {
    public static final int VERSION = 1;
    public static final int MAX_CALLER_BYTES = 64;
    public static final int MAX_OPERATION_BYTES = 64;
    public static final int MAX_ARGUMENTS = 16;
    public static final int MAX_TEXT_BYTES = 256;
    public static final int MAX_DETAIL_BYTES = 512;
    /**
     * The longest message: what a status event's payload carries
     * ({@link org.gridstat.core.wire.WireFormat#MAX_PAYLOAD_LENGTH}, 1,424 bytes) less the 2WoPS
     * frame's header ({@link org.gridstat.rpc.transport.TransportFrame#HEADER_LENGTH}, 36 bytes).
     * A longer one could be encoded but never sent.
     */
    public static final int MAX_MESSAGE_BYTES = org.gridstat.rpc.transport.TransportFrame.MAX_PAYLOAD;
    /** Ids plus type and version: what a malformed message must hold for its sender to be answered. */
    static final int ID_BYTES = 18;
    private static final Pattern OPERATION = Pattern.compile("[A-Za-z0-9_.\\-]+");

    private RpcCodec() {
    }

    /** What decoding gave: a message, or why not (with the ids when they could be read). */
    public record Decoded(RpcMessage message, String error, int type, long session, long requestId) {
        public boolean ok() {
            return message != null;
        }

        /** Whether the ids of a malformed message were read. */
        public boolean idsKnown() {
            return message == null && type != 0;
        }
    }

    /** Whether {@code name} may name an operation. */
    public static boolean validOperation(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_OPERATION_BYTES && OPERATION.matcher(name).matches();
    }

    /**
     * Why {@code value} cannot travel as an argument or a result, or {@code null} if it can: it
     * must be a Long, Double, Boolean or String, a String of at most {@link #MAX_TEXT_BYTES} bytes
     * of UTF-8.
     */
    public static String unfit(Object value) {
        if (ParamType.of(value) == null) {
            return "a " + (value == null ? "null" : value.getClass().getName()) + ", not a Long, Double, Boolean or String";
        }
        if (value instanceof String s) {
            int n = s.getBytes(StandardCharsets.UTF_8).length;
            if (n > MAX_TEXT_BYTES) {
                return "a text of " + n + " bytes of UTF-8, at most " + MAX_TEXT_BYTES + " travel";
            }
        }
        return null;
    }

    /**
     * @throws IllegalArgumentException if a field is out of range (too long, an argument of no
     *                                  supported type); what encodes also decodes
     */
    public static byte[] encode(RpcMessage m) {
        ByteBuffer b = ByteBuffer.allocate(org.gridstat.rpc.transport.TransportFrame.MAX_PAYLOAD); // what one frame carries
        try {
            if (m instanceof RpcMessage.Request r) {
                if (!validOperation(r.operation())) {
                    throw new IllegalArgumentException("operation name '" + r.operation()
                            + "' must be 1.." + MAX_OPERATION_BYTES + " letters, digits, '_', '-' or '.'");
                }
                if (r.arguments().size() > MAX_ARGUMENTS) {
                    throw new IllegalArgumentException("at most " + MAX_ARGUMENTS + " arguments, got " + r.arguments().size());
                }
                if (r.retries() < 0 || r.retries() > 255) {
                    throw new IllegalArgumentException("retries must be 0..255");
                }
                header(b, 1, r);
                b.putLong(r.deadlineEpochNanos()).put((byte) r.retries());
                string(b, r.caller(), 1, MAX_CALLER_BYTES, false, "caller");
                string(b, r.operation(), 1, MAX_OPERATION_BYTES, false, "operation");
                b.put((byte) r.arguments().size());
                for (Object a : r.arguments()) {
                    value(b, a);
                }
            } else if (m instanceof RpcMessage.Reply r) {
                header(b, 2, r);
                b.put((byte) r.code().code);
                if (r.value() == null) {
                    b.put((byte) 0);
                } else {
                    value(b, r.value());
                }
                b.putLong(r.postDueNanos() < 0 ? -1 : r.postDueNanos());
                string(b, r.detail() == null ? "" : clip(r.detail()), 0, MAX_DETAIL_BYTES, true, "detail");
            } else if (m instanceof RpcMessage.Post p) {
                header(b, 3, p);
                b.put((byte) (p.holds() ? 1 : 0));
                string(b, p.detail() == null ? "" : clip(p.detail()), 0, MAX_DETAIL_BYTES, true, "detail");
            }
        } catch (java.nio.BufferOverflowException e) {
            throw new IllegalArgumentException("the message does not fit one 2WoPS frame", e);
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    /** Details are for people: one too long is cut, not refused. */
    private static String clip(String detail) {
        byte[] utf8 = detail.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_DETAIL_BYTES) {
            return detail;
        }
        String s = detail.substring(0, Math.min(detail.length(), MAX_DETAIL_BYTES / 4));
        return s;
    }

    private static void header(ByteBuffer b, int type, RpcMessage m) {
        b.put((byte) type).put((byte) VERSION).putLong(m.session()).putLong(m.requestId());
    }

    private static void value(ByteBuffer b, Object v) {
        ParamType t = ParamType.of(v);
        if (t == null) {
            throw new IllegalArgumentException("a value is a Long, Double, Boolean or String, got "
                    + (v == null ? "null" : v.getClass().getSimpleName()));
        }
        b.put((byte) t.tag);
        switch (t) {
            case INTEGER -> b.putLong((Long) v);
            case DECIMAL -> b.putDouble((Double) v);
            case BOOLEAN -> b.put((byte) (((Boolean) v) ? 1 : 0));
            case TEXT -> string(b, (String) v, 0, MAX_TEXT_BYTES, true, "text value");
        }
    }

    private static void string(ByteBuffer b, String s, int min, int max, boolean wide, String what) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        if (utf8.length < min || utf8.length > max) {
            throw new IllegalArgumentException(what + " must be " + min + ".." + max + " bytes of UTF-8, got " + utf8.length);
        }
        if (wide) {
            b.putShort((short) utf8.length);
        } else {
            b.put((byte) utf8.length);
        }
        b.put(utf8);
    }

    /** Reads the message in {@code length} bytes of {@code in} from {@code offset}; never throws. */
    public static Decoded decode(byte[] in, int offset, int length) {
        if (length < ID_BYTES) {
            return new Decoded(null, "shorter than a message's ids (" + length + " bytes)", 0, 0, 0);
        }
        if (length > org.gridstat.rpc.transport.TransportFrame.MAX_PAYLOAD) { // what decodes also encodes
            return new Decoded(null, length + " bytes, longer than one frame carries", 0, 0, 0);
        }
        ByteBuffer b = ByteBuffer.wrap(in, offset, length);
        int type = b.get() & 0xFF;
        int version = b.get() & 0xFF;
        long session = b.getLong();
        long request = b.getLong();
        if (type < 1 || type > 3) {
            return new Decoded(null, "unknown message type " + type, 0, session, request);
        }
        if (version != VERSION) {
            return new Decoded(null, "message version " + version + ", this server speaks " + VERSION, type, session, request);
        }
        try {
            RpcMessage m = switch (type) {
                case 1 -> request(b, session, request);
                case 2 -> reply(b, session, request);
                default -> new RpcMessage.Post(session, request, bool(b), string(b, 0, MAX_DETAIL_BYTES, true, "detail"));
            };
            if (b.hasRemaining()) {
                return new Decoded(null, b.remaining() + " bytes after the message", type, session, request);
            }
            return new Decoded(m, null, type, session, request);
        } catch (BufferUnderflowException e) {
            return new Decoded(null, "truncated", type, session, request);
        } catch (Malformed e) {
            return new Decoded(null, e.getMessage(), type, session, request);
        }
    }

    private static RpcMessage.Request request(ByteBuffer b, long session, long request) {
        long deadline = b.getLong();
        int retries = b.get() & 0xFF;
        String caller = string(b, 1, MAX_CALLER_BYTES, false, "caller");
        String operation = string(b, 1, MAX_OPERATION_BYTES, false, "operation");
        if (!validOperation(operation)) {
            throw new Malformed("operation name '" + operation + "' holds characters other than letters, digits, '_', '-', '.'");
        }
        int count = b.get() & 0xFF;
        if (count > MAX_ARGUMENTS) {
            throw new Malformed(count + " arguments, at most " + MAX_ARGUMENTS);
        }
        List<Object> args = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Object v = value(b);
            if (v == null) {
                throw new Malformed("argument " + (i + 1) + " has no value");
            }
            args.add(v);
        }
        return new RpcMessage.Request(session, request, deadline, retries, caller, operation, args);
    }

    private static RpcMessage.Reply reply(ByteBuffer b, long session, long request) {
        int c = b.get() & 0xFF;
        ReplyCode code = ReplyCode.of(c);
        if (code == null) {
            throw new Malformed("unknown reply code " + c);
        }
        Object value = value(b);
        long postDue = b.getLong();
        if (postDue < -1) {
            throw new Malformed("post-condition due " + postDue + " ns");
        }
        return new RpcMessage.Reply(session, request, code, value, string(b, 0, MAX_DETAIL_BYTES, true, "detail"), postDue);
    }

    private static Object value(ByteBuffer b) {
        int tag = b.get() & 0xFF;
        if (tag == 0) {
            return null;
        }
        ParamType t = ParamType.ofTag(tag);
        if (t == null) {
            throw new Malformed("unknown value tag " + tag);
        }
        return switch (t) {
            case INTEGER -> b.getLong();
            case DECIMAL -> b.getDouble();
            case BOOLEAN -> bool(b);
            case TEXT -> string(b, 0, MAX_TEXT_BYTES, true, "text value");
        };
    }

    private static boolean bool(ByteBuffer b) {
        int v = b.get() & 0xFF;
        if (v > 1) {
            throw new Malformed("a boolean is 0 or 1, got " + v);
        }
        return v == 1;
    }

    private static String string(ByteBuffer b, int min, int max, boolean wide, String what) {
        int n = wide ? b.getShort() & 0xFFFF : b.get() & 0xFF;
        if (n < min || n > max) {
            throw new Malformed(what + " is " + n + " bytes, " + min + ".." + max + " allowed");
        }
        byte[] bytes = new byte[n];
        b.get(bytes);
        try {
            CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return c.toString();
        } catch (CharacterCodingException e) {
            throw new Malformed(what + " is not UTF-8");
        }
    }

    /** A field out of range: turned into a {@link Decoded} error, never thrown out. */
    private static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
