package org.gridstat.htb.internal;

import java.io.IOException;

/** Moves the calling thread between network namespaces (setns), in libgridstat-htb. {@link NativeLibrary#load()} first. */
public final class NamespaceSwitch {
    private NamespaceSwitch() {
    }

    /**
     * Moves this thread into the network namespace bound at path.
     *
     * @return a descriptor of the namespace the thread was in, for {@link #leave}
     */
    public static native int enter(String path) throws IOException;

    /** Moves this thread back into the namespace {@link #enter} returned, and closes that descriptor. */
    public static native void leave(int ownNamespace) throws IOException;
}
