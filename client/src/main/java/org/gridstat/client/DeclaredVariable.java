package org.gridstat.client;

import java.time.Duration;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.model.VariableId;

/** A variable the broker knows: its declaration and the id its events must carry. */
public record DeclaredVariable(String name, VariableId id, String router, int frameBytes, Duration interval,
                               ServiceClass serviceClass, String correlationGroup) {
}
