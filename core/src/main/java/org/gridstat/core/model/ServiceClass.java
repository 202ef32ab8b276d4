package org.gridstat.core.model;

/**
 * Service classes in priority order. {@link #CONTROL} carries the middleware's own messages and is
 * served before all data; the others map onto the NASPI classes: HRT is class A (feedback
 * control), LRT class B (feed-forward control), BE classes C, D and E.
 */
public enum ServiceClass {
    CONTROL(0),
    HRT(1),
    LRT(2),
    BE(3);

    private static final ServiceClass[] BY_CODE = {CONTROL, HRT, LRT, BE};

    private final int code;

    ServiceClass(int code) {
        this.code = code;
    }

    /** The class's value in the wire header. */
    public int code() {
        return code;
    }

    /** The class for a wire code, or {@code null} if the code names no class. */
    public static ServiceClass fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** Whether subscriptions may ask for this class; control is reserved for the middleware. */
    public boolean isSubscribable() {
        return this != CONTROL;
    }
}
