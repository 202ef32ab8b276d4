package org.gridstat.htb;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.List;
import org.gridstat.htb.netns.NetworkNamespace;

/**
 * Calls every native method of libgridstat-htb, on its success and its error paths, for a JVM run
 * with -Xcheck:jni (CheckJniTest). Arguments: a device it may shape, a namespace and that
 * namespace's device. Exits 0 if everything answered as expected, 1 with the reason otherwise.
 */
public final class JniExerciser {
    private static final int ENOENT = 2;
    private static final int EEXIST = 17;
    private static final int ENODEV = 19;
    private static final int EINVAL = 22;
    private static final int ERANGE = 34;

    private JniExerciser() {
    }

    public static void main(String[] args) throws Exception {
        String dev = args[0];
        String namespace = args[1];
        String farDev = args[2];
        try (Htb htb = Htb.open()) {
            exercise(htb, dev);
        }
        exerciseNamespaces(namespace, farDev);
        System.out.println("exercised");
    }

    private static void exercise(Htb htb, String dev) throws Exception {
        expect(htb.whyNot(dev) == null, "whyNot(" + dev + ") is null, not " + htb.whyNot(dev));
        expect(htb.whyNot("gsnowhere0") != null, "whyNot of a missing device says why");
        expect(htb.ifindex(dev) > 0, "an ifindex");
        refused(ENODEV, () -> htb.ifindex("gsnowhere0"));
        refused(EINVAL, () -> htb.ifindex("a-name-too-long-for-linux"));
        String kind = htb.rootQdiscKind(dev);
        expect(!htb.clear(dev), "nothing to clear");

        refused(ENOENT, () -> htb.addClass(dev, 0, 1, rates(1_000_000))); // no qdisc yet
        htb.createRoot(dev, 2);
        refused(EEXIST, () -> htb.createRoot(dev, 2));
        htb.addClass(dev, 0, 1, rates(10_000_000));
        htb.addClass(dev, 1, 2, rates(100_000));
        htb.addClass(dev, 1, 0x10, rates(1_000_000));
        htb.addClass(dev, 0x10, 0x101, rates(200_000));
        htb.addClass(dev, 0, 0x50, new ClassRates(5_000_000_000L, 6_000_000_000L, 100_000, 100_000, 3, 0));
        refused(EEXIST, () -> htb.addClass(dev, 1, 2, rates(100_000)));
        refused(ENOENT, () -> htb.addClass(dev, 0x99, 3, rates(100_000)));
        refused(EINVAL, () -> htb.addClass(dev, 0x10, 0x102, rates(2_000_000)));
        refused(ERANGE, () -> htb.addClass(dev, 0, 0x60, new ClassRates(1, 1, 1_000_000, 1_000_000, 0, 0)));
        htb.changeClass(dev, 0x10, 0x101, rates(100_000));
        refused(ENOENT, () -> htb.changeClass(dev, 0x10, 0x103, rates(100_000)));
        htb.setLeafQueue(dev, 0x101, 50);
        htb.setLeafQueue(dev, 0x101, 60);
        refused(EINVAL, () -> htb.setLeafQueue(dev, 0x10, 50));
        U32Match match = U32Match.udp().destination((Inet4Address) InetAddress.getByName("10.77.6.2"))
                .destinationPort(4_000).payloadWord(0, 0x4753_4854, 0xFFFF_FFFF).build();
        htb.addFilter(dev, 5, 0x101, match);
        refused(EEXIST, () -> htb.addFilter(dev, 5, 0x101, match));
        refused(ENOENT, () -> htb.addFilter(dev, 6, 0x77, match));
        List<ClassStatistics> classes = htb.classes(dev);
        expect(classes.size() == 5, "5 classes, not " + classes);
        refused(ENODEV, () -> htb.classes("gsnowhere0"));
        expect("htb".equals(htb.rootQdiscKind(dev)), "htb at the root");
        htb.deleteFilter(dev, 5);
        refused(ENOENT, () -> htb.deleteFilter(dev, 5));
        htb.deleteClass(dev, 0x50);
        refused(ENOENT, () -> htb.deleteClass(dev, 0x50));
        expect(htb.clear(dev), "our htb cleared");
        expect(java.util.Objects.equals(kind, htb.rootQdiscKind(dev)), "the root qdisc back to " + kind);
    }

    private static void exerciseNamespaces(String namespace, String farDev) throws Exception {
        String farKind = NetworkNamespace.call(namespace, () -> {
            try (Htb far = Htb.open(); DatagramChannel socket = DatagramChannel.open()) {
                socket.bind(new InetSocketAddress(0));
                return far.rootQdiscKind(farDev);
            }
        });
        expect(farKind != null, "the far device has a root qdisc");
        try {
            NetworkNamespace.call("gsnowhere-ns", () -> 1);
            throw new AssertionError("entered a namespace that does not exist");
        } catch (IOException expected) {
            // the namespace is not there
        }
        try {
            NetworkNamespace.call(namespace, () -> {
                throw new IllegalStateException("thrown inside");
            });
            throw new AssertionError("the exception thrown inside did not come out");
        } catch (IllegalStateException expected) {
            // back in our own namespace, with the exception
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void refused(int errno, Call call) throws Exception {
        try {
            call.run();
        } catch (HtbException e) {
            expect(e.errno() == errno, "errno " + errno + " expected: " + e.getMessage());
            return;
        }
        throw new AssertionError("not refused (errno " + errno + " expected)");
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    private static ClassRates rates(long rate) {
        return new ClassRates(rate, rate, 3_000, 3_000, 0, 0);
    }
}
