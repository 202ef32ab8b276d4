package org.gridstat.htb.netns;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.regex.Pattern;
import org.gridstat.htb.internal.Capabilities;

/**
 * A private network namespace wired to the current one by a veth pair, for tests and testbeds: for
 * prefix {@code p}, namespace {@code p-far}, device {@code ph} here and {@code pf} there, both up
 * with their addresses, and {@code lo} up in {@code p-far}. IPv6 addresses are not generated on the
 * pair, so it carries only what is sent over it (and ARP). Made and removed with iproute2's
 * {@code ip}.
 */
public final class VethLink implements AutoCloseable {
    /** Device names are at most 15 bytes, and the prefix gets one more. */
    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9]{0,13}");
    private static final Pattern ADDRESS = Pattern.compile("(\\d{1,3}(?:\\.\\d{1,3}){3})/(\\d{1,2})");

    private static String whyNot;
    private static boolean whyNotKnown;

    private final String prefix;
    private final InetAddress hostAddress;
    private final InetAddress farAddress;
    private boolean closed;

    private VethLink(String prefix, InetAddress hostAddress, InetAddress farAddress) {
        this.prefix = prefix;
        this.hostAddress = hostAddress;
        this.farAddress = farAddress;
    }

    /**
     * Creates the namespace and the pair. A namespace or host device left with these names (by a run
     * that crashed) is removed first.
     *
     * @param prefix a lower-case letter then up to 13 lower-case letters or digits, unique to its user
     * @param hostAddress this side's address with its prefix length, e.g. {@code 10.77.0.1/24}
     * @param farAddress the far side's, e.g. {@code 10.77.0.2/24}
     */
    public static VethLink create(String prefix, String hostAddress, String farAddress) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("prefix must be a lower-case letter then up to 13 lower-case letters"
                    + " or digits, not \"" + prefix + "\"");
        }
        VethLink link = new VethLink(prefix, address(hostAddress, "hostAddress"), address(farAddress, "farAddress"));
        link.remove();
        String ns = link.farNamespace();
        String host = link.hostDevice();
        String far = link.farDevice();
        try {
            Ip.run("netns", "add", ns);
            Ip.run("link", "add", host, "type", "veth", "peer", "name", far, "netns", ns);
            Ip.run("link", "set", host, "addrgenmode", "none");
            Ip.run("addr", "add", hostAddress, "dev", host);
            Ip.run("link", "set", host, "up");
            Ip.run("-n", ns, "link", "set", far, "addrgenmode", "none");
            Ip.run("-n", ns, "addr", "add", farAddress, "dev", far);
            Ip.run("-n", ns, "link", "set", far, "up");
            Ip.run("-n", ns, "link", "set", "lo", "up");
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
        return link;
    }

    /** Null if namespaces and veth pairs can be made here (iproute2 present, root's capabilities), else why not. */
    public static synchronized String whyNot() {
        if (!whyNotKnown) {
            whyNot = probe();
            whyNotKnown = true;
        }
        return whyNot;
    }

    public String hostDevice() {
        return prefix + "h";
    }

    public String farNamespace() {
        return prefix + "-far";
    }

    public String farDevice() {
        return prefix + "f";
    }

    public InetAddress hostAddress() {
        return hostAddress;
    }

    public InetAddress farAddress() {
        return farAddress;
    }

    /** Removes the pair and the namespace; again, or on a link already gone, it does nothing. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            remove();
        }
    }

    @Override
    public String toString() {
        return hostDevice() + " " + hostAddress.getHostAddress() + " <-> " + farNamespace() + "/" + farDevice() + " "
                + farAddress.getHostAddress();
    }

    private void remove() {
        Ip.runQuietly("link", "del", hostDevice()); // takes its peer with it
        Ip.runQuietly("netns", "del", farNamespace());
    }

    private static InetAddress address(String withPrefix, String name) {
        Objects.requireNonNull(withPrefix, name);
        var m = ADDRESS.matcher(withPrefix);
        if (!m.matches() || Integer.parseInt(m.group(2)) > 32) {
            throw new IllegalArgumentException(name + " must be an IPv4 address with its prefix length, like"
                    + " 10.77.0.1/24, not \"" + withPrefix + "\"");
        }
        String[] parts = m.group(1).split("\\.");
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int b = Integer.parseInt(parts[i]);
            if (b > 255) {
                throw new IllegalArgumentException(name + " is not an IPv4 address: \"" + withPrefix + "\"");
            }
            bytes[i] = (byte) b;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (java.net.UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String probe() {
        String ip = Ip.whyNot();
        if (ip != null) {
            return ip;
        }
        if (!Capabilities.effective(Capabilities.CAP_SYS_ADMIN) || !Capabilities.effective(Capabilities.CAP_NET_ADMIN)) {
            return "network namespaces and veth pairs need root (CAP_SYS_ADMIN and CAP_NET_ADMIN)";
        }
        try {
            Ip.run("netns", "list");
        } catch (IOException e) {
            return "ip netns does not work here: " + e.getMessage();
        }
        return null;
    }
}
