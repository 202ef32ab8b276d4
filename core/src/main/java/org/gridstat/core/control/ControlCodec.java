package org.gridstat.core.control;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.gridstat.core.control.ControlFrame.Reject;
import org.gridstat.core.control.ControlMessage.Ack;
import org.gridstat.core.control.ControlMessage.FlowReport;
import org.gridstat.core.control.ControlMessage.FlowSample;
import org.gridstat.core.control.ControlMessage.Heartbeat;
import org.gridstat.core.control.ControlMessage.Hello;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.control.ControlMessage.Nack;
import org.gridstat.core.control.ControlMessage.RemoveFlow;
import org.gridstat.core.control.ControlMessage.SyncEnd;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;

/**
 * The control channel's encoding, big-endian. A frame on the stream is a 4-byte length followed
 * by that many bytes of body:
 *
 * <pre>
 * body:   u8 schema version (2) | u8 type | u64 sequence | payload
 * string: u16 length | UTF-8 bytes (strictly valid)
 * Hello        1: string router id
 * InstallFlow  2: u64 version | u64 variable | string link | u64 flow id | u8 class | u64 assured |
 *                 u64 minimum | u64 ceiling | u32 buffer | u16 n | n x u64 interval |
 *                 u64 publisher interval | u64 downstream budget | u64 least rest-of-path delay |
 *                 string correlation group
 * RemoveFlow   3: u64 flow id | u64 version
 * SyncEnd      4: (nothing)
 * Ack          5: u64 acknowledged sequence
 * Nack         6: u64 refused sequence | string reason
 * FlowReport   7: u64 time (ms since 1970) | u16 n (at most 512) | n x (u64 flow id | u64 events sent |
 *                 u64 bytes sent | u64 overflow drops | u64 deadline misses | u64 backlog |
 *                 f64 arrival rate | f64 departure rate)
 * Heartbeat    8: (nothing)
 * </pre>
 *
 * Decoding checks every length against what is left and every value against its domain; a body
 * that decodes must be consumed exactly. Nothing is thrown for bad input.
 *
 * <p>Schema 2 added InstallFlow's least rest-of-path delay. A peer of schema 1 is refused as a
 * whole (its Hello already) rather than understood in part: a router that took schema 2's SyncEnd
 * but refused its installs would drop every flow the broker had installed, while a refused
 * connection leaves them in force until both ends speak the same schema.
 */
public final class ControlCodec {
    public static final int SCHEMA_VERSION = 2;
    /** Largest body accepted: far above any real message, small enough to bound a reader's memory. */
    public static final int MAX_BODY = 64 * 1024;
    public static final int LENGTH_PREFIX = 4;
    private static final int MAX_STRING = 1024;
    private static final int MAX_INTERVALS = 64;

    private static final int HELLO = 1;
    private static final int INSTALL = 2;
    private static final int REMOVE = 3;
    private static final int SYNC_END = 4;
    private static final int ACK = 5;
    private static final int NACK = 6;
    private static final int FLOW_REPORT = 7;
    private static final int HEARTBEAT = 8;

    private ControlCodec() {
    }

    /** Encodes a message as one frame, length prefix included. */
    public static byte[] encode(long sequence, ControlMessage m) {
        ByteBuffer b = ByteBuffer.allocate(MAX_BODY + LENGTH_PREFIX);
        b.position(LENGTH_PREFIX);
        b.put((byte) SCHEMA_VERSION);
        if (m instanceof Hello h) {
            b.put((byte) HELLO).putLong(sequence);
            string(b, h.routerId());
        } else if (m instanceof InstallFlow f) {
            b.put((byte) INSTALL).putLong(sequence);
            b.putLong(f.version()).putLong(f.variableId());
            string(b, f.link());
            FlowSpec s = f.spec();
            b.putLong(s.flowId()).put((byte) s.serviceClass().code()).putLong(s.assuredRate()).putLong(s.minimumRate())
                    .putLong(s.ceilingRate()).putInt(s.bufferEvents());
            long[] intervals = f.intervalsNanos();
            if (intervals.length > MAX_INTERVALS) {
                throw new IllegalArgumentException("at most " + MAX_INTERVALS + " intervals per flow");
            }
            b.putShort((short) intervals.length);
            for (long i : intervals) {
                b.putLong(i);
            }
            b.putLong(f.publisherIntervalNanos()).putLong(f.downstreamBudgetNanos()).putLong(f.minRestDelayNanos());
            string(b, s.correlationGroup());
        } else if (m instanceof RemoveFlow r) {
            b.put((byte) REMOVE).putLong(sequence).putLong(r.flowId()).putLong(r.version());
        } else if (m instanceof SyncEnd) {
            b.put((byte) SYNC_END).putLong(sequence);
        } else if (m instanceof Ack a) {
            b.put((byte) ACK).putLong(sequence).putLong(a.sequence());
        } else if (m instanceof Nack n) {
            b.put((byte) NACK).putLong(sequence).putLong(n.sequence());
            string(b, n.reason().length() > MAX_STRING / 4 ? n.reason().substring(0, MAX_STRING / 4) : n.reason());
        } else if (m instanceof Heartbeat) {
            b.put((byte) HEARTBEAT).putLong(sequence);
        } else if (m instanceof FlowReport r) {
            b.put((byte) FLOW_REPORT).putLong(sequence).putLong(r.timeMillis()).putShort((short) r.flows().size());
            for (FlowSample f : r.flows()) {
                b.putLong(f.flowId()).putLong(f.eventsSent()).putLong(f.bytesSent()).putLong(f.overflowDrops())
                        .putLong(f.deadlineMisses()).putLong(f.backlog()).putDouble(f.arrivalRate())
                        .putDouble(f.departureRate());
            }
        }
        int length = b.position() - LENGTH_PREFIX;
        b.putInt(0, length);
        byte[] out = new byte[b.position()];
        b.flip();
        b.get(out);
        return out;
    }

    private static void string(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING) {
            throw new IllegalArgumentException("string of " + bytes.length + " bytes exceeds " + MAX_STRING);
        }
        b.putShort((short) bytes.length).put(bytes);
    }

    /** Decodes one frame body (the bytes after the length prefix). */
    public static ControlFrame decode(ByteBuffer body) {
        int length = body.remaining();
        if (length > MAX_BODY) {
            return ControlFrame.refused(Reject.OVERSIZE, length + " bytes, at most " + MAX_BODY);
        }
        ByteBuffer b = body.slice();
        try {
            if (length < 10) {
                return ControlFrame.refused(Reject.TRUNCATED, length + " bytes, the header alone is 10");
            }
            int version = b.get() & 0xFF;
            if (version != SCHEMA_VERSION) {
                return ControlFrame.refused(Reject.UNSUPPORTED_VERSION, "schema version " + version + ", this end speaks "
                        + SCHEMA_VERSION);
            }
            int type = b.get() & 0xFF;
            long sequence = b.getLong();
            ControlMessage m;
            switch (type) {
                case HELLO:
                    m = new Hello(string(b));
                    break;
                case INSTALL:
                    m = install(b);
                    break;
                case REMOVE:
                    m = new RemoveFlow(b.getLong(), b.getLong());
                    break;
                case SYNC_END:
                    m = new SyncEnd();
                    break;
                case ACK:
                    m = new Ack(b.getLong());
                    break;
                case NACK:
                    m = new Nack(b.getLong(), string(b));
                    break;
                case FLOW_REPORT:
                    m = report(b);
                    break;
                case HEARTBEAT:
                    m = new Heartbeat();
                    break;
                default:
                    return ControlFrame.refused(Reject.UNKNOWN_TYPE, "message type " + type);
            }
            if (b.hasRemaining()) {
                return ControlFrame.refused(Reject.TRAILING_BYTES, b.remaining() + " bytes after the message");
            }
            return ControlFrame.of(sequence, m);
        } catch (BufferUnderflowException e) {
            return ControlFrame.refused(Reject.TRUNCATED, "the body ends inside a field");
        } catch (IllegalArgumentException e) {
            return ControlFrame.refused(Reject.BAD_FIELD, e.getMessage());
        }
    }

    private static FlowReport report(ByteBuffer b) {
        long time = b.getLong();
        int n = b.getShort() & 0xFFFF;
        if (n > FlowReport.MAX_SAMPLES) {
            throw new IllegalArgumentException(n + " samples, at most " + FlowReport.MAX_SAMPLES);
        }
        if (time < 0) {
            throw new IllegalArgumentException("report time " + time + " is negative");
        }
        java.util.List<FlowSample> samples = new java.util.ArrayList<>(Math.min(n, b.remaining() / 64 + 1));
        for (int i = 0; i < n; i++) {
            samples.add(new FlowSample(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(),
                    b.getDouble(), b.getDouble()));
        }
        return new FlowReport(time, samples);
    }

    private static InstallFlow install(ByteBuffer b) {
        long version = b.getLong();
        long variable = b.getLong();
        String link = string(b);
        long flowId = b.getLong();
        ServiceClass c = ServiceClass.fromCode(b.get() & 0xFF);
        if (c == null) {
            throw new IllegalArgumentException("service class code names no class");
        }
        long assured = b.getLong();
        long minimum = b.getLong();
        long ceiling = b.getLong();
        int buffer = b.getInt();
        int n = b.getShort() & 0xFFFF;
        if (n > MAX_INTERVALS) {
            throw new IllegalArgumentException(n + " intervals, at most " + MAX_INTERVALS);
        }
        long[] intervals = new long[n];
        for (int i = 0; i < n; i++) {
            intervals[i] = b.getLong();
            if (intervals[i] <= 0) {
                throw new IllegalArgumentException("interval " + intervals[i] + " is not positive");
            }
        }
        long publisher = b.getLong();
        long budget = b.getLong();
        long rest = b.getLong();
        String group = string(b);
        if (version < 1 || variable == 0 || publisher < 0 || budget < 0 || rest < 0) {
            throw new IllegalArgumentException("version, variable id, publisher interval, budget or rest delay out of range");
        }
        return new InstallFlow(version, variable, link, FlowSpec.of(flowId, c, assured, minimum, ceiling, buffer, group),
                intervals, publisher, budget, rest);
    }

    private static String string(ByteBuffer b) {
        int n = b.getShort() & 0xFFFF;
        if (n > MAX_STRING) {
            throw new IllegalArgumentException("string of " + n + " bytes exceeds " + MAX_STRING);
        }
        if (n > b.remaining()) {
            throw new BufferUnderflowException();
        }
        ByteBuffer bytes = b.slice().limit(n);
        b.position(b.position() + n);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = utf8.decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("a string is not valid UTF-8");
        }
    }
}
