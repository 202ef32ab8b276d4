package org.gridstat.rpc.server;

import java.util.List;

/** What an operation does to the plant: opens a breaker, moves a tap. Runs in the server's thread. */
@FunctionalInterface
public interface Actuator {
    /**
     * @param arguments the call's arguments, already checked against the operation's parameters
     * @return the result sent back (a Long, Double, Boolean or String of at most 256 bytes of
     *     UTF-8), or {@code null} for none; a result no reply can carry is not sent, and the reply's
     *     detail says why
     * @throws Exception the actuator failed: the caller is told so, with the message
     */
    Object invoke(List<Object> arguments) throws Exception;
}
