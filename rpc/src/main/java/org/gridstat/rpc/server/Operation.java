package org.gridstat.rpc.server;

import java.util.List;
import java.util.Objects;
import org.gridstat.rpc.call.ParamType;
import org.gridstat.rpc.call.RpcCodec;
import org.gridstat.rpc.condition.Condition;

/**
 * A typed operation a server exports: its name, its parameters, the actuator it runs, the
 * pre-condition that must hold before it runs and the post-condition checked {@code settleNanos}
 * after it ran ({@link Condition#ALWAYS} for none).
 */
public record Operation(String name, List<ParamType> parameters, Actuator actuator, Condition precondition,
                        Condition postcondition, long settleNanos) {
    public Operation {
        if (!RpcCodec.validOperation(name)) {
            throw new IllegalArgumentException("operation name '" + name + "' must be 1.." + RpcCodec.MAX_OPERATION_BYTES
                    + " letters, digits, '_', '-' or '.'");
        }
        parameters = List.copyOf(parameters);
        if (parameters.size() > RpcCodec.MAX_ARGUMENTS) {
            throw new IllegalArgumentException("operation " + name + ": at most " + RpcCodec.MAX_ARGUMENTS + " parameters");
        }
        Objects.requireNonNull(actuator, "actuator");
        precondition = precondition == null ? Condition.ALWAYS : precondition;
        postcondition = postcondition == null ? Condition.ALWAYS : postcondition;
        if (settleNanos < 0) {
            throw new IllegalArgumentException("operation " + name + ": the settling delay cannot be negative");
        }
    }

    /** An operation without conditions. */
    public static Operation of(String name, List<ParamType> parameters, Actuator actuator) {
        return new Operation(name, parameters, actuator, Condition.ALWAYS, Condition.ALWAYS, 0);
    }

    /** Whether a post-condition is checked after the actuator ran. */
    public boolean checksPostcondition() {
        return !Condition.ALWAYS.equals(postcondition);
    }

    /** Why {@code arguments} do not fit the parameters, or {@code null} if they do. */
    String mismatch(List<Object> arguments) {
        if (arguments.size() != parameters.size()) {
            return name + " takes " + parameters.size() + " arguments " + parameters + ", got " + arguments.size();
        }
        for (int i = 0; i < arguments.size(); i++) {
            if (!parameters.get(i).accepts(arguments.get(i))) {
                return name + ": argument " + (i + 1) + " must be " + parameters.get(i) + ", got "
                        + ParamType.of(arguments.get(i));
            }
        }
        return null;
    }
}
