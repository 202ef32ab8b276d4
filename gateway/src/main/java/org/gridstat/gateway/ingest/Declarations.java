package org.gridstat.gateway.ingest;

import java.time.Duration;
import org.gridstat.core.model.ServiceClass;

/** Where the variables a gateway publishes are declared (the broker), without blocking the caller. */
public interface Declarations {
    /** No broker: variables are published under their derived ids only. */
    Declarations NONE = (name, frameBytes, interval, serviceClass) -> { };

    /** Declares (or declares again, after a configuration change) a variable; returns at once. */
    void declare(String name, int frameBytes, Duration interval, ServiceClass serviceClass);
}
