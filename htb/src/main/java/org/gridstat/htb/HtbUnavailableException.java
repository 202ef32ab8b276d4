package org.gridstat.htb;

/** Kernel shaping cannot be used from this JVM at all; {@link #reason()} says why in one sentence. */
public class HtbUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public HtbUnavailableException(String reason) {
        this(reason, null);
    }

    public HtbUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
        this.reason = reason;
    }

    /**
     * "no native library for &lt;os&gt;/&lt;arch&gt;", "native library failed to load: ..." or
     * "netlink socket refused: ...".
     */
    public String reason() {
        return reason;
    }
}
