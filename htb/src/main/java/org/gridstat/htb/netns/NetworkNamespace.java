package org.gridstat.htb.netns;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.gridstat.htb.internal.NamespaceSwitch;
import org.gridstat.htb.internal.NativeLibrary;

/**
 * A named network namespace, bound under /var/run/netns as {@code ip netns add} leaves it. Code run
 * in it with {@link #call} opens its sockets there: a socket stays in the namespace it was created
 * in, whichever thread uses it later.
 */
public final class NetworkNamespace {
    private static final String RUN_DIR = "/var/run/netns/";

    private NetworkNamespace() {
    }

    /**
     * Runs work on the current thread inside namespace name (setns), then moves the thread back to
     * the namespace it was in, whether work returns or throws. Needs the native library (an
     * {@link org.gridstat.htb.HtbUnavailableException} says why it is missing) and CAP_SYS_ADMIN.
     *
     * @throws IOException if the namespace does not exist or cannot be entered, or (rare, and the
     *     thread is then left in the namespace) the thread cannot return
     */
    public static <T> T call(String name, Callable<T> work) throws Exception {
        requireName(name);
        Objects.requireNonNull(work, "work");
        NativeLibrary.load();
        int own = NamespaceSwitch.enter(RUN_DIR + name);
        T result;
        try {
            result = work.call();
        } catch (Throwable t) {
            try {
                NamespaceSwitch.leave(own);
            } catch (IOException stuck) {
                t.addSuppressed(stuck);
            }
            throw t;
        }
        NamespaceSwitch.leave(own);
        return result;
    }

    static void requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a network namespace name: \"" + name + "\"");
        }
    }
}
