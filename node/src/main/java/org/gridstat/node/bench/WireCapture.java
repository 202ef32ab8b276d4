package org.gridstat.node.bench;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.gridstat.core.wire.WireFormat;

/**
 * A hop's latency as the wire sees it: {@code tcpdump} on the loopback interface stamps, in the
 * kernel, each frame entering the hop (to its input port) and each leaving it (to its output port);
 * a frame's hop latency is the difference of the two stamps for its sequence number. Unlike the
 * sink's receive time, this leaves out when the load generator and the sink threads happen to run,
 * which on a small machine is most of the end-to-end tail. Needs tcpdump and the right to capture.
 */
final class WireCapture implements AutoCloseable {
    private static final int SNAP_LENGTH = 128;
    /** One frame in this many is captured; a power of two. */
    static final int SAMPLE_EVERY = 16;
    private static final int ETHERNET_HEADER = 14;
    private static final int UDP_HEADER = 8;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final byte PROTOCOL_UDP = 17;

    private final Process tcpdump;
    private final Path file;
    private final int inPort;
    private final int outPort;

    /** What a capture found: the hop latencies in nanoseconds, and how many input frames had no output. */
    record HopLatency(Histogram nanos, long unmatched) {
    }

    private WireCapture(Process tcpdump, Path file, int inPort, int outPort) {
        this.tcpdump = tcpdump;
        this.file = file;
        this.inPort = inPort;
        this.outPort = outPort;
    }

    /**
     * Starts capturing UDP to {@code inPort} and {@code outPort} on loopback; returns once tcpdump
     * listens. Only frames whose sequence number is a multiple of {@link #SAMPLE_EVERY} are taken
     * (the kernel's filter drops the others), so tcpdump's own work stays small; the sample does not
     * depend on latency, so its percentiles are the hop's.
     *
     * @param cpus where tcpdump may run ({@code taskset} list), or null for anywhere
     */
    static WireCapture start(int inPort, int outPort, String cpus) throws IOException {
        Path file = Files.createTempFile("gridstat-bench-", ".pcap");
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        // The sequence number is big-endian at frame offset 16; its last byte lies at UDP offset 8 + 23.
        int lastSequenceByte = UDP_HEADER + WireFormat.SEQUENCE_OFFSET + 7;
        command.addAll(List.of("tcpdump", "-i", "lo", "-n", "-s", Integer.toString(SNAP_LENGTH),
                "--time-stamp-precision=nano", "-B", "65536", "-w", file.toString(),
                "udp and (dst port " + inPort + " or dst port " + outPort + ") and udp[" + lastSequenceByte + "] & "
                        + (SAMPLE_EVERY - 1) + " = 0"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder said = new StringBuilder();
        String line;
        while ((line = err.readLine()) != null) {
            said.append(line).append('\n');
            if (line.contains("listening on")) {
                Thread drain = new Thread(() -> drain(err), "tcpdump-output");
                drain.setDaemon(true);
                drain.start();
                return new WireCapture(p, file, inPort, outPort);
            }
        }
        Files.deleteIfExists(file);
        throw new IOException("tcpdump did not start: " + said.toString().trim());
    }

    private static void drain(BufferedReader r) {
        try {
            while (r.readLine() != null) {
                // tcpdump's closing statistics; not needed
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /** Stops the capture and pairs each frame's entry with its exit. */
    HopLatency stop() throws IOException, InterruptedException {
        tcpdump.destroy(); // SIGTERM: tcpdump flushes its file and exits
        if (!tcpdump.waitFor(10, TimeUnit.SECONDS)) {
            tcpdump.destroyForcibly();
            throw new IOException("tcpdump did not stop");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return pair(in, inPort, outPort);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Reads a nanosecond pcap capture of Ethernet frames (what tcpdump writes for {@code lo}) and
     * pairs each GridStat frame sent to {@code inPort} with the one of the same sequence number sent
     * to {@code outPort}.
     *
     * @throws IOException if the capture is not such a file or a record is malformed
     */
    static HopLatency pair(InputStream source, int inPort, int outPort) throws IOException {
        Map<Long, Long> entered = new HashMap<>();
        Histogram hop = new Histogram(10_000_000_000L, 3);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(source, 1 << 16))) {
            byte[] global = new byte[24];
            in.readFully(global);
            ByteBuffer g = ByteBuffer.wrap(global);
            ByteOrder order = g.getInt(0) == 0xa1b23c4d ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            if (g.order(order).getInt(0) != 0xa1b23c4d) {
                throw new IOException("not a nanosecond pcap file");
            }
            if (g.getInt(20) != 1) {
                throw new IOException("link type " + g.getInt(20) + " is not Ethernet");
            }
            byte[] header = new byte[16];
            byte[] packet = new byte[SNAP_LENGTH];
            while (true) {
                try {
                    in.readFully(header);
                } catch (EOFException end) {
                    break;
                }
                ByteBuffer h = ByteBuffer.wrap(header).order(order);
                long stamp = (h.getInt(0) & 0xffffffffL) * 1_000_000_000L + (h.getInt(4) & 0xffffffffL);
                int captured = h.getInt(8);
                if (captured < 0 || captured > packet.length) {
                    throw new IOException("record of " + captured + " bytes in a capture of at most " + SNAP_LENGTH);
                }
                try {
                    in.readFully(packet, 0, captured);
                } catch (EOFException cut) {
                    break; // the last record was cut short when tcpdump stopped
                }
                ByteBuffer p = ByteBuffer.wrap(packet, 0, captured);
                int ip = ETHERNET_HEADER;
                if (captured <= ip || (p.getShort(12) & 0xffff) != ETHERTYPE_IPV4 || (p.get(ip) & 0xf0) != 0x40
                        || captured <= ip + 9 || p.get(ip + 9) != PROTOCOL_UDP) {
                    continue; // not UDP over IPv4 (the bench sends to 127.0.0.1)
                }
                int udp = ip + (p.get(ip) & 0x0f) * 4;
                int frame = udp + UDP_HEADER;
                if (captured < frame + WireFormat.SEQUENCE_OFFSET + 8) {
                    continue; // not a whole GridStat header: not a frame of the bench
                }
                int port = p.getShort(udp + 2) & 0xffff;
                long sequence = p.getLong(frame + WireFormat.SEQUENCE_OFFSET);
                if (port == inPort) {
                    entered.put(sequence, stamp);
                } else if (port == outPort) {
                    Long at = entered.remove(sequence);
                    if (at != null) {
                        hop.recordValue(Math.max(0, Math.min(10_000_000_000L, stamp - at)));
                    }
                }
            }
        }
        return new HopLatency(hop, entered.size());
    }

    @Override
    public void close() throws IOException {
        if (tcpdump.isAlive()) {
            tcpdump.destroyForcibly();
        }
        Files.deleteIfExists(file);
    }
}
