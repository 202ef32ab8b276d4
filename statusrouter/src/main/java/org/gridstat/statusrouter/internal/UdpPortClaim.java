package org.gridstat.statusrouter.internal;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A router's data port is its identity: the data plane binds it with SO_REUSEPORT (one socket per
 * event loop), which would let a second router with the same configuration share the port
 * silently and take part of the traffic. So the port is first bound without SO_REUSEPORT, which
 * fails if any process holds it, and the holder is looked up in {@code /proc} to be named.
 */
final class UdpPortClaim {
    /** Enough of a command line to recognise the process. */
    private static final int MAX_COMMAND = 120;

    private UdpPortClaim() {
    }

    /**
     * @param what the port's role, for the message ("data port")
     * @throws IllegalStateException if another socket holds {@code at}, naming its process if it can be found
     */
    static void requireFree(InetSocketAddress at, String what) {
        if (at.getPort() == 0) {
            return; // the system picks a free one
        }
        try (DatagramChannel probe = at.getAddress() instanceof Inet4Address
                ? DatagramChannel.open(StandardProtocolFamily.INET) : DatagramChannel.open()) {
            probe.bind(at);
        } catch (BindException taken) {
            throw new IllegalStateException(what + " " + at.getAddress().getHostAddress() + ":" + at.getPort()
                    + " is already bound by " + holder(at.getPort()) + "; is another router running with this"
                    + " configuration? Stop it or give this one another port");
        } catch (IOException e) {
            throw new IllegalStateException("cannot check the " + what + " " + at + ": " + e.getMessage(), e);
        }
    }

    /**
     * After this process bound {@code at} with SO_REUSEPORT in {@code own} sockets: refuses if more
     * sockets are bound there, which is another router that passed {@link #requireFree} at about the
     * same time (the check and the binding cannot be one step, and a router's start takes a while
     * between them). Both may then refuse; neither shares the port. Without {@code /proc}, accepted.
     *
     * @throws IllegalStateException if other sockets are bound to {@code at} as well
     */
    static void requireSole(InetSocketAddress at, int own, String what) {
        int bound = socketsBoundTo(at);
        if (bound > own) {
            throw new IllegalStateException(what + " " + at.getAddress().getHostAddress() + ":" + at.getPort()
                    + " was bound by " + (bound - own) + " other socket(s) while this router started; is another"
                    + " router starting with this configuration? Stop it or give this one another port");
        }
    }

    /** How many UDP sockets are bound to exactly {@code at}, from {@code /proc}; -1 if unknown. */
    static int socketsBoundTo(InetSocketAddress at) {
        byte[] a = at.getAddress().getAddress();
        String port = String.format(Locale.ROOT, ":%04X", at.getPort());
        Set<String> wanted = new HashSet<>();
        if (a.length == 4) {
            wanted.add("/proc/net/udp " + procHex(a) + port);
            byte[] mapped = new byte[16]; // an IPv6 socket bound to the IPv4 address
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(a, 0, mapped, 12, 4);
            wanted.add("/proc/net/udp6 " + procHex(mapped) + port);
        } else {
            wanted.add("/proc/net/udp6 " + procHex(a) + port);
        }
        int n = 0;
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] cols = line.trim().split("\\s+");
                    if (cols.length > 1 && wanted.contains(table + " " + cols[1])) {
                        n++;
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                return -1;
            }
        }
        return n;
    }

    /** An address as {@code /proc/net/udp*} shows it: each 32-bit word in the host's byte order. */
    private static String procHex(byte[] a) {
        StringBuilder b = new StringBuilder(2 * a.length);
        for (int w = 0; w < a.length; w += 4) {
            for (int j = 0; j < 4; j++) {
                int i = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 3 - j : j;
                b.append(String.format(Locale.ROOT, "%02X", a[w + i] & 0xff));
            }
        }
        return b.toString();
    }

    /** The process holding a UDP socket on {@code port}, as "process PID (command)", or a generic phrase. */
    static String holder(int port) {
        Set<String> sockets = new HashSet<>();
        String hexPort = String.format(Locale.ROOT, "%04X", port);
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] cols = line.trim().split("\\s+");
                    if (cols.length > 9 && cols[1].endsWith(":" + hexPort)) {
                        sockets.add("socket:[" + cols[9] + "]");
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                // not Linux, or not allowed: say less
            }
        }
        if (!sockets.isEmpty()) {
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path proc : procs) {
                    if (holds(proc, sockets)) {
                        return "process " + proc.getFileName() + " (" + command(proc) + ")";
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                // fall through
            }
        }
        return "another process (not found in /proc: another user's?)";
    }

    private static boolean holds(Path proc, Set<String> sockets) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    if (sockets.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        } catch (IOException | RuntimeException notOurs) {
            // another user's process, or it exited
        }
        return false;
    }

    private static String command(Path proc) {
        try {
            String cmd = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ').trim();
            if (cmd.length() <= MAX_COMMAND) {
                return cmd;
            }
            // the program, then the end of the line, where a router's arguments (its configuration file) are
            String program = cmd.substring(0, Math.max(0, cmd.indexOf(' ')));
            int tail = Math.max(40, MAX_COMMAND - program.length() - 5);
            return program + " ... " + cmd.substring(cmd.length() - tail);
        } catch (IOException e) {
            return "command unknown";
        }
    }
}
