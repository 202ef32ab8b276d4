package org.gridstat.core.management;

import java.util.List;
import java.util.Locale;
import org.gridstat.core.model.ServiceClass;

/** Reading the fields that several documents share; each problem found is added to a list. */
public final class DocumentFields {
    private DocumentFields() {
    }

    /** The interval from {@code rateHz} or {@code intervalNanos}, exactly one of which must be given; 0 on a problem. */
    public static long interval(Double rateHz, Long intervalNanos, List<String> problems) {
        if ((rateHz == null) == (intervalNanos == null)) {
            problems.add("give exactly one of rateHz and intervalNanos");
            return 0;
        }
        if (rateHz != null) {
            if (!(rateHz > 0) || rateHz.isInfinite()) {
                problems.add("rateHz must be a positive number, got " + rateHz);
                return 0;
            }
            return Math.round(1e9 / rateHz);
        }
        if (intervalNanos <= 0) {
            problems.add("intervalNanos must be positive, got " + intervalNanos);
            return 0;
        }
        return intervalNanos;
    }

    /** A data class by name ({@code HRT}, {@code LRT}, {@code BE}, any case); {@code null} on a problem. */
    public static ServiceClass dataClass(String name, List<String> problems) {
        try {
            ServiceClass c = ServiceClass.valueOf(name.toUpperCase(Locale.ROOT));
            if (c != ServiceClass.CONTROL) {
                return c;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        problems.add("serviceClass must be HRT, LRT or BE, got '" + name + "'");
        return null;
    }

    /** Adds "NAME is required" if the value is missing. */
    public static void require(Object value, String name, List<String> problems) {
        if (value == null) {
            problems.add(name + " is required");
        }
    }
}
