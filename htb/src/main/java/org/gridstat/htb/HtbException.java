package org.gridstat.htb;

/**
 * A request about an interface's HTB that the kernel (or this library, on the kernel's behalf)
 * refused. The message reads {@code <operation> on <dev>: <error> (errno N)[: <detail>]}, for
 * example {@code add class 1:101 on eth1: No such file or directory (errno 2): parent class 1:10
 * does not exist}.
 */
public class HtbException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String operation;
    private final String device;
    private final int errno;
    private final String detail;

    /**
     * @param operation what was asked, in tc's terms, e.g. {@code add class 1:101}
     * @param device the interface
     * @param errno the error number (positive)
     * @param errorText the error number's text (strerror)
     * @param detail the kernel's extended-ack message or the library's own explanation; null if none
     */
    public HtbException(String operation, String device, int errno, String errorText, String detail) {
        super(operation + " on " + device + ": " + errorText + " (errno " + errno + ")"
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.operation = operation;
        this.device = device;
        this.errno = errno;
        this.detail = detail == null || detail.isEmpty() ? null : detail;
    }

    /** What was asked, in tc's terms: {@code create root 1:}, {@code change class 1:101}, {@code add filter 800::5}... */
    public String operation() {
        return operation;
    }

    public String device() {
        return device;
    }

    /** The error number: ENOENT (2) for a class, filter or parent that does not exist, EEXIST (17) for one that does... */
    public int errno() {
        return errno;
    }

    /** The kernel's extended-ack message, or the library's explanation; null if there is none. */
    public String detail() {
        return detail;
    }
}
