package org.gridstat.core.control;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.gridstat.core.control.ControlFrame.Reject;
import org.gridstat.core.control.ControlMessage.Ack;
import org.gridstat.core.control.ControlMessage.FlowReport;
import org.gridstat.core.control.ControlMessage.FlowSample;
import org.gridstat.core.control.ControlMessage.Heartbeat;
import org.gridstat.core.control.ControlMessage.Hello;
import org.gridstat.core.control.ControlMessage.InstallFlow;
import org.gridstat.core.control.ControlMessage.Nack;
import org.gridstat.core.control.ControlMessage.OutLink;
import org.gridstat.core.control.ControlMessage.OutLinks;
import org.gridstat.core.control.ControlMessage.RemoveFlow;
import org.gridstat.core.control.ControlMessage.RouterReport;
import org.gridstat.core.control.ControlMessage.SyncEnd;
import org.gridstat.core.model.Endpoint;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.FlowSpec;

/**
 * The control channel's encoding, big-endian. A frame on the stream is a 4-byte length followed
 * by that many bytes of body:
 *
 * <pre>
 * body:   u8 schema version (5) | u8 type | u64 sequence | payload
 * string: u16 length | UTF-8 bytes (strictly valid)
 * Hello        1: string router id
 * InstallFlow  2: u64 version | u64 variable | string link | u64 flow id | u8 class | u64 assured |
 *                 u64 minimum | u64 ceiling | u32 buffer | u16 n | n x u64 interval |
 *                 u64 publisher interval | u64 downstream budget | u64 least rest-of-path delay |
 *                 string correlation group | u8 n (at most 8) | n x (string previous router id (empty: the
 *                 publisher) | string its data address (empty: not known))
 * RemoveFlow   3: u64 flow id | u64 version
 * SyncEnd      4: (nothing)
 * Ack          5: u64 acknowledged sequence
 * Nack         6: u64 refused sequence | string reason
 * FlowReport   7: u64 time (ms since 1970) | u16 n (at most 512) | n x (u64 flow id | u64 events sent |
 *                 u64 bytes sent | u64 overflow drops | u64 deadline misses | u64 backlog |
 *                 f64 arrival rate | f64 departure rate | f64 demand | u64 assured rate | u64 shortfall |
 *                 u32 held rate in Hz (0: none) | u32 queueing latency p99 over the period in µs (at most
 *                 60,000,000) | u64 reassignments since the router's data path started)
 * Heartbeat    8: (nothing)
 * RouterReport 16: u64 time (ms since 1970) | values totals | values drops | u16 m |
 *                  m x (string link (1..255 bytes) | values figures); at most 32 links
 *   values:        u16 n (at most 24) | n x (string name (1..48 bytes) | u64 count)
 * NoticePeer  10: string router id (empty: a publisher)
 * Publishes   11: u16 n (at most 1024) | n x u64 variable
 * CongestionNotice 12: u64 variable | u32 advised rate in Hz (0: no limit)
 * OutLinks     9: u16 n (at most 256) | n x (string name | string address (host:port) |
 *                 string priority address (empty: none) | u64 capacity | u8 hrt % | u8 lrt % | u8 be % |
 *                 u64 burst (0: default) | u32 mtu | u64 delay ns | f64 loss | u64 mean time between
 *                 faults ns | u64 fault duration ns | u64 seed | u64 emulated queue bytes (0: default))
 * </pre>
 *
 * Decoding checks every length against what is left and every value against its domain; a body
 * that decodes must be consumed exactly. Nothing is thrown for bad input.
 *
 * <p>Schema 2 added InstallFlow's least rest-of-path delay, schema 4 its previous hops and the flow
 * samples' held rate, schema 5 the flow samples' latency p99 and reassignments. A peer of another
 * schema is refused as a whole (its Hello already) rather than understood in part: a router that
 * took a newer schema's SyncEnd but refused its installs would drop every flow the broker had
 * installed, while a refused connection leaves them in force until both ends speak the same schema.
 */
public final class ControlCodec {
    public static final int SCHEMA_VERSION = 5;
    /** Largest body accepted: far above any real message, small enough to bound a reader's memory. */
    public static final int MAX_BODY = 64 * 1024;
    public static final int LENGTH_PREFIX = 4;
    private static final int MAX_STRING = 1024;
    /** The most intervals one InstallFlow carries (its count is encoded, and bounded, here). */
    public static final int MAX_INTERVALS = 64;

    private static final int HELLO = 1;
    private static final int INSTALL = 2;
    private static final int REMOVE = 3;
    private static final int SYNC_END = 4;
    private static final int ACK = 5;
    private static final int NACK = 6;
    private static final int FLOW_REPORT = 7;
    private static final int HEARTBEAT = 8;
    private static final int ROUTER_REPORT = 16;
    private static final int OUT_LINKS = 9;
    private static final int NOTICE_PEER = 10;
    private static final int PUBLISHES = 11;
    private static final int NOTICE = 12;

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
            b.put((byte) f.upstream().size());
            for (ControlMessage.Upstream u : f.upstream()) {
                string(b, u.router());
                string(b, u.address() == null ? "" : u.address().toString());
            }
        } else if (m instanceof ControlMessage.NoticePeer p) {
            b.put((byte) NOTICE_PEER).putLong(sequence);
            string(b, p.routerId());
        } else if (m instanceof ControlMessage.Publishes p) {
            long[] variables = p.variableIds();
            b.put((byte) PUBLISHES).putLong(sequence).putShort((short) variables.length);
            for (long v : variables) {
                b.putLong(v);
            }
        } else if (m instanceof ControlMessage.CongestionNotice n) {
            b.put((byte) NOTICE).putLong(sequence).putLong(n.variableId()).putInt(n.rateHz());
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
                        .putDouble(f.departureRate()).putDouble(f.demand()).putLong(f.assuredRate()).putLong(f.shortfall())
                        .putInt(f.heldRateHz()).putInt((int) f.latencyP99Micros()).putLong(f.reassignments());
            }
        } else if (m instanceof RouterReport r) {
            b.put((byte) ROUTER_REPORT).putLong(sequence).putLong(r.timeMillis());
            values(b, r.totals());
            values(b, r.drops());
            b.putShort((short) r.links().size());
            r.links().forEach((link, figures) -> {
                string(b, link);
                values(b, figures);
            });
        } else if (m instanceof OutLinks o) {
            b.put((byte) OUT_LINKS).putLong(sequence);
            try {
                outLinks(b, o);
            } catch (java.nio.BufferOverflowException e) {
                throw new IllegalArgumentException(o.links().size() + " out-links take more than the " + MAX_BODY
                        + "-byte body limit");
            }
        }
        int length = b.position() - LENGTH_PREFIX;
        b.putInt(0, length);
        byte[] out = new byte[b.position()];
        b.flip();
        b.get(out);
        return out;
    }

    private static void values(ByteBuffer b, java.util.Map<String, Long> values) {
        b.putShort((short) values.size());
        values.forEach((name, v) -> {
            string(b, name);
            b.putLong(v);
        });
    }

    private static java.util.Map<String, Long> values(ByteBuffer b) {
        int n = b.getShort() & 0xFFFF;
        if (n > RouterReport.MAX_VALUES) {
            throw new IllegalArgumentException(n + " values, at most " + RouterReport.MAX_VALUES);
        }
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = string(b);
            if (out.put(name, b.getLong()) != null) {
                throw new IllegalArgumentException("'" + name + "' twice");
            }
        }
        return out;
    }

    private static RouterReport routerReport(ByteBuffer b) {
        long time = b.getLong();
        java.util.Map<String, Long> totals = values(b);
        java.util.Map<String, Long> drops = values(b);
        int m = b.getShort() & 0xFFFF;
        if (m > RouterReport.MAX_LINKS) {
            throw new IllegalArgumentException(m + " links, at most " + RouterReport.MAX_LINKS);
        }
        java.util.Map<String, java.util.Map<String, Long>> links = new java.util.LinkedHashMap<>();
        for (int i = 0; i < m; i++) {
            String link = string(b);
            if (links.put(link, values(b)) != null) {
                throw new IllegalArgumentException("link '" + link + "' twice");
            }
        }
        return new RouterReport(time, totals, drops, links);
    }

    /**
     * Whether {@link #encode} can carry this install, without encoding it: a broker checks every
     * install a change needs before it stores the change.
     *
     * @throws IllegalArgumentException saying what exceeds which limit
     */
    public static void checkEncodable(InstallFlow f) {
        if (f.intervalsNanos().length > MAX_INTERVALS) {
            throw new IllegalArgumentException("at most " + MAX_INTERVALS + " intervals per flow, got "
                    + f.intervalsNanos().length);
        }
        java.util.List<String> strings = new java.util.ArrayList<>(List.of(f.link(), f.spec().correlationGroup()));
        f.upstream().forEach(u -> strings.add(u.router()));
        for (String s : strings) {
            int bytes = s.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_STRING) {
                throw new IllegalArgumentException("string of " + bytes + " bytes exceeds " + MAX_STRING);
            }
        }
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
                case ROUTER_REPORT:
                    m = routerReport(b);
                    break;
                case OUT_LINKS:
                    m = outLinks(b);
                    break;
                case HEARTBEAT:
                    m = new Heartbeat();
                    break;
                case NOTICE_PEER:
                    m = new ControlMessage.NoticePeer(string(b));
                    break;
                case PUBLISHES:
                    m = publishes(b);
                    break;
                case NOTICE:
                    long variable = b.getLong();
                    m = new ControlMessage.CongestionNotice(variable, b.getInt());
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

    private static ControlMessage.Publishes publishes(ByteBuffer b) {
        int n = b.getShort() & 0xFFFF;
        if (n > ControlMessage.Publishes.MAX_VARIABLES) {
            throw new IllegalArgumentException(n + " variables, at most " + ControlMessage.Publishes.MAX_VARIABLES);
        }
        if (n * 8 > b.remaining()) {
            throw new BufferUnderflowException();
        }
        long[] variables = new long[n];
        for (int i = 0; i < n; i++) {
            variables[i] = b.getLong();
        }
        return new ControlMessage.Publishes(variables);
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
        java.util.List<FlowSample> samples = new java.util.ArrayList<>(Math.min(n, b.remaining() / 104 + 1));
        for (int i = 0; i < n; i++) {
            samples.add(new FlowSample(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(),
                    b.getDouble(), b.getDouble(), b.getDouble(), b.getLong(), b.getLong(), b.getInt(),
                    b.getInt() & 0xFFFF_FFFFL, b.getLong()));
        }
        return new FlowReport(time, samples);
    }

    private static void outLinks(ByteBuffer b, OutLinks o) {
        b.putShort((short) o.links().size());
        for (OutLink l : o.links()) {
            string(b, l.name());
            string(b, l.address().toString());
            string(b, l.priority() == null ? "" : l.priority().toString());
            b.putLong(l.capacity()).put((byte) l.hrtPercent()).put((byte) l.lrtPercent()).put((byte) l.bePercent())
                    .putLong(l.burstBytes()).putInt(l.mtu());
            ControlMessage.Emulation e = l.emulation();
            b.putLong(e.delayNanos()).putDouble(e.loss()).putLong(e.faultEveryNanos()).putLong(e.faultForNanos())
                    .putLong(e.seed()).putLong(e.queueBytes());
        }
    }

    private static OutLinks outLinks(ByteBuffer b) {
        int n = b.getShort() & 0xFFFF;
        if (n > OutLinks.MAX_LINKS) {
            throw new IllegalArgumentException(n + " out-links, at most " + OutLinks.MAX_LINKS);
        }
        java.util.List<OutLink> links = new java.util.ArrayList<>(Math.min(n, b.remaining() / 80 + 1));
        for (int i = 0; i < n; i++) {
            String name = string(b);
            Endpoint address = endpoint(string(b));
            String priority = string(b);
            links.add(new OutLink(name, address, priority.isEmpty() ? null : endpoint(priority), b.getLong(),
                    b.get() & 0xFF, b.get() & 0xFF, b.get() & 0xFF, b.getLong(), b.getInt(),
                    new ControlMessage.Emulation(b.getLong(), b.getDouble(), b.getLong(), b.getLong(), b.getLong(),
                            b.getLong())));
        }
        return new OutLinks(links);
    }

    /** An address as written by {@link Endpoint#toString()}, and only so: one text per address. */
    private static Endpoint endpoint(String text) {
        Endpoint e = Endpoint.parse(text);
        if (!e.toString().equals(text)) {
            throw new IllegalArgumentException("address '" + text + "' is not written as " + e);
        }
        return e;
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
        int hops = b.get() & 0xFF;
        if (hops > InstallFlow.MAX_UPSTREAM) {
            throw new IllegalArgumentException(hops + " previous hops, at most " + InstallFlow.MAX_UPSTREAM);
        }
        java.util.List<ControlMessage.Upstream> upstream = new java.util.ArrayList<>(hops);
        for (int i = 0; i < hops; i++) {
            String router = string(b);
            String address = string(b);
            ControlMessage.Upstream u = new ControlMessage.Upstream(router, address.isEmpty() ? null : endpoint(address));
            if (upstream.contains(u)) { // one text per message: the record would fold it, and re-encode shorter
                throw new IllegalArgumentException("previous hop " + u + " is named twice");
            }
            upstream.add(u);
        }
        if (version < 1 || variable == 0 || publisher < 0 || budget < 0 || rest < 0) {
            throw new IllegalArgumentException("version, variable id, publisher interval, budget or rest delay out of range");
        }
        return new InstallFlow(version, variable, link, FlowSpec.of(flowId, c, assured, minimum, ceiling, buffer, group),
                intervals, publisher, budget, rest, upstream);
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
